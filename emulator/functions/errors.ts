// The answers `supabase functions serve` gives when a function cannot (the CLI's
// `internal/functions/serve/templates/main.ts`: SB_SPECIFIC_ERROR_CODE, _TEXT and _REASON, and its
// getResponse: a string body goes out as text/plain, an object as JSON).
import type { ServerResponse } from 'node:http';

export const BOOT_ERROR = {
  status: 503,
  body: { code: 'BOOT_ERROR', message: 'Worker failed to boot (please check logs)' },
};
export const WORKER_ERROR = {
  status: 500,
  body: { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' },
};
export const WORKER_LIMIT = {
  status: 546,
  body: {
    code: 'WORKER_LIMIT',
    message: 'Worker failed to respond due to a resource limit (please check logs)',
  },
};

export type Failure = typeof BOOT_ERROR | typeof WORKER_ERROR | typeof WORKER_LIMIT;

export function sendFailure(res: ServerResponse, failure: Failure): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(failure.body);
  res.writeHead(failure.status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

export function sendNotFound(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/plain', 'Content-Length': '18' });
  res.end('Function not found');
}

/** 401 with the CLI's `{msg}` body. */
export function sendUnauthorized(res: ServerResponse, msg: string): void {
  const body = JSON.stringify({ msg });
  res.writeHead(401, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
