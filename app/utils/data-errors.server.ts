// Turns errors of the data API (PostgREST: tables and RPCs) and of storage into what the person sees,
// as auth-errors.server.ts does for the account service: one place that knows SQLSTATEs and
// PostgREST codes, so routes name a kind of failure, and only a real outage reads as
// `backend_unavailable`.
import { MESSAGES, fileTooLargeMessage } from './messages.ts';

export type DataErrorKind = 'invalid' | 'forbidden' | 'not_found' | 'conflict' | 'too_large' | 'unavailable';

export interface DataError {
  kind: DataErrorKind;
  status: 400 | 403 | 404 | 409 | 413 | 503;
  /** The catalogue's words for the kind; routes may say something more precise. */
  message: string;
}

const STATUS: Record<DataErrorKind, DataError['status']> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unavailable: 503,
};

const DEFAULT_MESSAGE: Record<DataErrorKind, string> = {
  invalid: 'That value is not valid here. Check it and try again.',
  forbidden: MESSAGES.forbidden,
  not_found: MESSAGES.not_found,
  conflict: 'That changed while you were working on it. Reload and try again.',
  too_large: fileTooLargeMessage(10),
  unavailable: MESSAGES.backend_unavailable,
};

const make = (kind: DataErrorKind): DataError => ({
  kind,
  status: STATUS[kind],
  message: DEFAULT_MESSAGE[kind],
});

/** What the error says, by its PostgreSQL SQLSTATE or PostgREST code (PostgREST's docs, "Errors"). */
function kindOfCode(code: string): DataErrorKind {
  // No code: the request never got an answer (postgrest-js reports a failed fetch with code '').
  if (code === '') return 'unavailable';
  // PostgREST's own codes: PGRST0xx are its connection to the database; PGRST116 is "no row" for
  // .single(); the rest describe a request it could not understand.
  if (/^PGRST0/.test(code)) return 'unavailable';
  if (code === 'PGRST116') return 'not_found';
  if (code.startsWith('PGRST')) return 'invalid';
  // A function raising `PTxyz` asks PostgREST to answer with HTTP status xyz.
  const pt = /^PT(\d{3})$/.exec(code);
  if (pt) {
    const status = Number(pt[1]);
    if (status === 403 || status === 401) return 'forbidden';
    if (status === 404) return 'not_found';
    if (status === 409) return 'conflict';
    if (status === 413) return 'too_large';
    return status >= 500 ? 'unavailable' : 'invalid';
  }
  if (code === '42501') return 'forbidden';
  if (code === '23505' || code === '40001' || code === '40P01') return 'conflict';
  if (code === 'P0002') return 'not_found';
  // Integrity (23…), data (22…) and a function's own refusal (P0001): the input was wrong.
  if (code.startsWith('23') || code.startsWith('22') || code === 'P0001') return 'invalid';
  // Connection (08), resources (53), operator intervention (57), system (58), internal (XX).
  return 'unavailable';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Classifies an error of supabase-js's data API or storage client. */
export function classifyDataError(error: unknown): DataError {
  if (!isRecord(error)) return make('unavailable');
  // storage-js errors carry the HTTP status storage answered with.
  const storageStatus = Number(error.statusCode ?? error.status ?? NaN);
  if (error.__isStorageError === true || Number.isFinite(storageStatus)) {
    if (storageStatus === 403 || storageStatus === 401) return make('forbidden');
    if (storageStatus === 404) return make('not_found');
    if (storageStatus === 409) return make('conflict');
    if (storageStatus === 413) return make('too_large');
    if (storageStatus === 400) return make('invalid');
    if (Number.isFinite(storageStatus)) return make(storageStatus >= 500 ? 'unavailable' : 'invalid');
  }
  return make(kindOfCode(typeof error.code === 'string' ? error.code : ''));
}

/** The kind alone, for routes that branch on it. */
export function dataErrorKind(error: unknown): DataErrorKind {
  return classifyDataError(error).kind;
}

/**
 * The constraint an integrity error names (`labels_workspace_name_key`), so a route can put its
 * refusal next to the field it is about. Postgres names it in the message of a unique, check or
 * foreign-key violation; a trigger that enforces a rule no constraint can (a limit) names its rule
 * in the detail the same way. Null for any other error.
 */
export function violatedConstraint(error: unknown): string | null {
  if (!isRecord(error) || typeof error.code !== 'string' || !error.code.startsWith('23')) return null;
  for (const text of [error.message, error.details])
    if (typeof text === 'string') {
      const named = /constraint "([^"]+)"/.exec(text);
      if (named?.[1]) return named[1];
    }
  return null;
}

/**
 * A Response to throw from a loader or action: the route's error boundary shows it. An outage is
 * logged once for all the requests it fails, by the backend's client (outage.server.ts).
 */
export function dataErrorResponse(
  error: unknown,
  overrides: Partial<Record<DataErrorKind, string>> = {},
): Response {
  const classified = classifyDataError(error);
  return new Response(overrides[classified.kind] ?? classified.message, { status: classified.status });
}

/**
 * The 404 a loader or action throws for a record that is not there, or not the caller's: whether it
 * exists is private, so both look the same.
 */
export function notFound(): Response {
  return new Response('Not found', { status: 404 });
}

/** The 400 for a request no form of the app sends (an unknown intent, a malformed hidden field). */
export function badRequest(): Response {
  return new Response('Bad request', { status: 400 });
}

/** A failure we cannot tell apart from an outage, for reads whose error object is gone. */
export function unavailableResponse(): Response {
  return new Response(MESSAGES.backend_unavailable, { status: 503 });
}
