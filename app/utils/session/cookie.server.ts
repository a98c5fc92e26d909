// The session @supabase/ssr keeps in the request's cookies, read once per request the way its server
// client reads it (@supabase/ssr src/cookies.ts and src/utils/chunker.ts): one cookie named by the
// storage key, or chunks `<key>.0`, `<key>.1`, … joined in order until one is missing or empty; a
// value that starts with `base64-` is base64url of the JSON auth-js stored.
//
// Nothing here is trusted: the access token it finds is used only once its signature has been
// checked (user.server.ts), exactly as the token the Supabase client would have read.

const BASE64_PREFIX = 'base64-';

export interface CookieSession {
  accessToken: string;
  /** When the access token expires, in seconds since the epoch. */
  expiresAt: number;
}

/**
 * The session in `cookies` under `storageKey`: 'none' when no cookie holds one, 'unreadable' when
 * what they hold is not a session auth-js would accept (its `_isValidSession`: an access token, a
 * refresh token and an expiry).
 */
export function sessionFromCookies(
  cookies: ReadonlyArray<{ name: string; value?: string }>,
  storageKey: string,
): CookieSession | 'none' | 'unreadable' {
  const byName = new Map<string, string>();
  for (const { name, value } of cookies) if (!byName.has(name)) byName.set(name, value ?? '');
  let raw = byName.get(storageKey) ?? '';
  if (!raw) {
    for (let i = 0; ; i++) {
      const chunk = byName.get(`${storageKey}.${i}`);
      if (!chunk) break;
      raw += chunk;
    }
  }
  if (!raw) return 'none';
  const json = raw.startsWith(BASE64_PREFIX)
    ? Buffer.from(raw.slice(BASE64_PREFIX.length), 'base64url').toString('utf8')
    : raw;
  let session: unknown;
  try {
    session = JSON.parse(json);
  } catch {
    return 'unreadable';
  }
  if (
    typeof session !== 'object' ||
    session === null ||
    !('access_token' in session) ||
    !('refresh_token' in session) ||
    !('expires_at' in session)
  )
    return 'unreadable';
  const { access_token: accessToken, refresh_token: refreshToken, expires_at: expiresAt } = session;
  if (typeof accessToken !== 'string' || !accessToken || typeof refreshToken !== 'string' || !refreshToken)
    return 'unreadable';
  if (typeof expiresAt !== 'number') return 'unreadable';
  return { accessToken, expiresAt };
}
