// Checks every state-changing request makes before it touches anything.
import { isHttps } from './session/supabase.server.ts';

/**
 * Refuses cross-site form posts (CSRF) with 403. Browsers say where a request comes from in
 * Sec-Fetch-Site and Origin; an Origin check needs no token in every form, and SameSite=Lax cookies
 * already keep other sites' POSTs from carrying the session.
 */
export function requireSameSite(request: Request): void {
  const site = request.headers.get('Sec-Fetch-Site');
  if (site !== null) {
    if (site === 'same-origin' || site === 'same-site') return;
    throw new Response('Forbidden', { status: 403 });
  }
  const origin = request.headers.get('Origin');
  if (origin !== null && origin !== 'null') {
    const forwardedHost = request.headers.get('x-forwarded-host');
    const url = new URL(request.url);
    // Behind a TLS proxy the request reaches the app over http: the visitor's own scheme is what the
    // proxy says, believed only as TRUST_PROXY says.
    const expected = `${isHttps(request) ? 'https:' : url.protocol}//${forwardedHost || url.host}`;
    if (origin === expected || origin === url.origin) return;
  }
  throw new Response('Forbidden', { status: 403 });
}

import { HONEYPOT_FIELD } from './honeypot.ts';
import { readForm } from './form-body.server.ts';
import { badRequest } from './data-errors.server.ts';
export { HONEYPOT_FIELD };

/** Public forms carry a field people never see; a bot that fills it gets a plain 400. */
export function checkHoneypot(formData: FormData): void {
  const value = formData.get(HONEYPOT_FIELD);
  if (typeof value === 'string' && value !== '') throw badRequest();
}

/** The start of every public form's action: refuse cross-site posts, read the form, check the honeypot. */
export async function readPublicForm(request: Request): Promise<FormData> {
  requireSameSite(request);
  const formData = await readForm(request);
  checkHoneypot(formData);
  return formData;
}
