// Who is asking: the verified JWT of a request, as storage-api's jwt plugin reads it
// (supabase/storage src/http/plugins/jwt.ts). HS256 tokens (the API keys) and ES256 user sessions
// are verified with the project's keys; the role claim becomes the Postgres role the request runs as.
import type { IncomingMessage } from 'node:http';
import { header } from '../lib/http.ts';
import { verifyJwt, type SigningKeys } from '../keys.ts';
import { errors } from './errors.ts';

export interface Requester {
  /** The Postgres role every query of this request runs as. */
  role: string;
  claims: Record<string, unknown>;
  /** The raw token, exposed to SQL as `request.jwt`. */
  jwt: string;
  /** Whether a valid JWT came with the request (routes that allow none treat the caller as anon). */
  authenticated: boolean;
}

export const ANONYMOUS: Requester = {
  role: 'anon',
  claims: { role: 'anon' },
  jwt: '',
  authenticated: false,
};

/** Roles a signed token may ask for: the API roles, as on a hosted project. */
const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);

export type JwtMode = 'required' | 'optional';

/**
 * The requester of `req`: the token in `Authorization`, `Bearer ` or not, as storage-api's jwt plugin
 * reads it (a request with only an `apikey` gets it there from the gateway, as behind the CLI's Kong).
 * With `optional`, a missing or invalid token makes the caller anonymous (storage-api's
 * `allowInvalidJwt` routes); otherwise it is AccessDenied with the verifier's message.
 */
export async function identify(keys: SigningKeys, req: IncomingMessage, mode: JwtMode): Promise<Requester> {
  const token = (header(req, 'authorization') ?? '').replace(/^Bearer\s+/i, '');
  if (!token) {
    if (mode === 'optional') return ANONYMOUS;
    throw errors.accessDenied('Invalid Compact JWS');
  }
  let claims: Record<string, unknown>;
  try {
    claims = await verifyJwt(keys, token);
  } catch (error) {
    if (mode === 'optional') return ANONYMOUS;
    throw errors.accessDenied(error instanceof Error ? error.message : 'Invalid JWT');
  }
  const role = typeof claims.role === 'string' && claims.role !== '' ? claims.role : 'anon';
  if (!API_ROLES.has(role)) {
    // Postgres would refuse `set role` anyway; answer as storage-api does for a role it cannot use.
    throw errors.accessDenied(`Access denied: Invalid role`);
  }
  return { role, claims: { ...claims, role }, jwt: token, authenticated: true };
}

export function subjectOf(requester: Requester): string | undefined {
  const sub = requester.claims.sub;
  return typeof sub === 'string' && sub !== '' ? sub : undefined;
}
