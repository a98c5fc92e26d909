// While the backend is down, every page that needs it answers 503. The log says so once when the
// outage starts, naming the first failure, and once when the backend answers again, saying how long
// it lasted and how many calls failed meanwhile: not a line, or a stack, per request.
//
// Every call to the backend reports its failures here (backend-fetch.server.ts); only an answer of
// the data API (PostgREST) ends an outage, because it answers only with its database up. (Auth's
// JWKS, say, answers without one.)

interface Outage {
  since: number;
  failedCalls: number;
}

let current: Outage | null = null;

/** A call to the backend got no answer, or a 5xx: the first of an outage is logged. */
export function backendFailed(reason: string, now = Date.now()): void {
  if (current) {
    current.failedCalls += 1;
    return;
  }
  current = { since: now, failedCalls: 1 };
  console.warn(`Backend unavailable: ${reason}. Pages that need it answer 503 until it is back.`);
}

/** The data API answered below 500: an outage, if there was one, is over. */
export function backendAnswered(now = Date.now()): void {
  if (!current) return;
  const seconds = ((now - current.since) / 1000).toFixed(1);
  const calls = current.failedCalls === 1 ? '1 call' : `${current.failedCalls} calls`;
  console.warn(`Backend available again after ${seconds} s; ${calls} to it failed meanwhile.`);
  current = null;
}

/** What a failed call says, in a few words: PostgREST's error code and message, or the socket's error. */
export function failureReason(what: string, status: number | null, detail: unknown): string {
  if (status !== null) {
    const said = errorBody(detail);
    return `${what} answered ${status}${said ? ` (${said})` : ''}`;
  }
  const cause = detail instanceof Error && detail.cause instanceof Error ? detail.cause : detail;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : '';
  const said = code || (cause instanceof Error ? cause.message : '');
  return `${what} gave no answer${said ? ` (${said})` : ''}`;
}

/** `code: message` of a PostgREST error body, or null. */
function errorBody(body: unknown): string | null {
  if (typeof body !== 'string' || !body.startsWith('{')) return null;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const code = 'code' in parsed && typeof parsed.code === 'string' ? parsed.code : '';
    const message = 'message' in parsed && typeof parsed.message === 'string' ? parsed.message : '';
    return [code, message].filter(Boolean).join(': ') || null;
  } catch {
    return null;
  }
}
