// Readiness, for load balancers and deploys: can this app serve, that is, do the parts of the backend
// it is configured with answer? /healthz stays the cheap liveness answer that touches nothing.
//
// Each part gets one light request with the anon key, all at once, each with a 2-second limit:
//   auth     GET  /auth/v1/health   (the local backend answers 503 there while its database is down)
//   rest     HEAD /rest/v1/         (PostgREST answers 503 while it has no database connection)
//   storage  GET  /storage/v1/bucket (the buckets the anon role may see: a query under RLS)
// A part is up when it answers below 500 in time: a 4xx (say, a hosted project that keeps its API
// description from the anon key) still proves that the service and its database answered.
// Relative, not `~/`: the unit tests load this module without the Remix compiler's alias.
import { supabaseEnv } from '../utils/env.server.ts';

const TIMEOUT_MS = 2000;

type Part = 'auth' | 'rest' | 'storage';

const PROBES: Record<Part, { method: 'GET' | 'HEAD'; path: string }> = {
  auth: { method: 'GET', path: '/auth/v1/health' },
  rest: { method: 'HEAD', path: '/rest/v1/' },
  storage: { method: 'GET', path: '/storage/v1/bucket' },
};

/** `ok`, or why the part counts as down: its status, a timeout, or no answer at all. */
async function probe(url: string, anonKey: string, part: Part): Promise<string> {
  const { method, path } = PROBES[part];
  try {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { apikey: anonKey, Authorization: `Bearer ${anonKey}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await res.body?.cancel();
    return res.status < 500 ? 'ok' : `HTTP ${res.status}`;
  } catch (error) {
    return error instanceof Error && error.name === 'TimeoutError'
      ? `no answer within ${TIMEOUT_MS} ms`
      : 'unreachable';
  }
}

export async function loader() {
  const { url, anonKey } = supabaseEnv();
  const parts = Object.keys(PROBES) as Part[];
  const results = await Promise.all(parts.map((part) => probe(url, anonKey, part)));
  const checks: Record<string, string> = {};
  const down: Record<string, string> = {};
  parts.forEach((part, i) => {
    const result = results[i] ?? 'unreachable';
    checks[part] = result === 'ok' ? 'ok' : 'down';
    if (result !== 'ok') down[part] = result;
  });
  const ready = Object.keys(down).length === 0;
  const body = ready ? { status: 'ok', checks } : { status: 'unavailable', checks, reasons: down };
  return new Response(JSON.stringify(body), {
    status: ready ? 200 : 503,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });
}
