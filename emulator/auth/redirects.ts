// Which redirect targets GoTrue follows: the site URL's origin, loopback addresses, and the
// additional_redirect_urls patterns (globs where `*` stops at `.` and `/`, `**` does not).
// supabase/auth internal/utilities/request.go IsRedirectURLValid.
import type { AuthRequest, AuthService } from './context.ts';

function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (c === '*') source += '[^./]*';
    else if (c === '?') source += '[^./]';
    else source += c.replace(/[\\^$+.()|{}[\]]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

const LOCALHOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isRedirectUrlValid(siteUrl: string, allowList: string[], candidate: string): boolean {
  if (!candidate) return false;
  let base: URL;
  let target: URL;
  try {
    base = new URL(siteUrl);
    target = new URL(candidate);
  } catch {
    return false;
  }
  if (
    base.hostname === target.hostname &&
    base.protocol === target.protocol &&
    (base.port === target.port || LOCALHOSTS.has(target.hostname))
  ) {
    return true;
  }
  const withoutFragment = candidate.split('#')[0] ?? '';
  return allowList.some((pattern) => globToRegExp(pattern).test(withoutFragment));
}

export function resolveRedirect(
  siteUrl: string,
  allowList: string[],
  requested: string | null | undefined,
  referer: string | undefined,
): string {
  if (requested && isRedirectUrlValid(siteUrl, allowList, requested)) return requested;
  if (referer && isRedirectUrlValid(siteUrl, allowList, referer)) return referer;
  return siteUrl;
}

export function redirectTarget(service: AuthService, req: AuthRequest, fromBody = ''): string {
  const requested = req.query.get('redirect_to') ?? (fromBody || null);
  const referer = typeof req.headers.referer === 'string' ? req.headers.referer : undefined;
  return resolveRedirect(
    service.settings.siteUrl,
    service.settings.additionalRedirectUrls,
    requested,
    referer,
  );
}
