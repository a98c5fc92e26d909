// Answers and clients shared by the functions.
import { createClient, type SupabaseClient } from 'npm:@supabase/supabase-js@2.119.0';

export function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } });
}

export function env(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`The secret ${name} is not set (supabase secrets set ${name}=…).`);
  return value;
}

/**
 * A client that acts as the caller: their own access token on every request, so row-level security
 * decides what the function may read, exactly as it decides for the app.
 */
export function clientAsCaller(req: Request): SupabaseClient {
  return createClient(env('SUPABASE_URL'), env('SUPABASE_ANON_KEY'), {
    global: { headers: { Authorization: req.headers.get('Authorization') ?? '' } },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

/** The claims of the caller's token, which the platform has already verified (verify_jwt). */
function callerClaims(req: Request): Record<string, unknown> {
  const token = (req.headers.get('Authorization') ?? '').replace(/^Bearer /, '');
  const payload = token.split('.')[1];
  if (!payload) return {};
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    return claims !== null && typeof claims === 'object' ? claims : {};
  } catch {
    return {};
  }
}

/** The caller's user id. */
export function callerId(req: Request): string | null {
  const { sub } = callerClaims(req);
  return typeof sub === 'string' ? sub : null;
}

/** The caller's database role: `service_role` for the schedule (pg_net with the service key). */
export function callerRole(req: Request): string | null {
  const { role } = callerClaims(req);
  return typeof role === 'string' ? role : null;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
