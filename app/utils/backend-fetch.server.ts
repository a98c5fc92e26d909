// How the app's server reaches the Supabase backend: over connections kept open between requests,
// and, for the small JSON exchanges of every page, over Node's own HTTP client.
//
// remix-serve replaces the global fetch with @remix-run/web-fetch, which opens a new TCP (and TLS)
// connection for every request unless it is given an agent, and runs each request and answer through
// a web-streams polyfill. On a signed-in page that was the largest part of the app's CPU after
// rendering: measured with `npm run bench`, a profile page cost 1.3 ms less (of about 7.5) when its
// one REST call went through node:http. Node's own fetch, where it is the global one (vitest,
// `remix dev`), keeps connections alive by itself and ignores the `agent` field.
import http from 'node:http';
import https from 'node:https';
import { backendAnswered, backendFailed, failureReason } from './outage.server.ts';

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

const agentFor = (url: URL) => (url.protocol === 'https:' ? agents.https : agents.http);

/** The global fetch, with the keep-alive agent for the backend's origin; failures go to outage.server.ts. */
const fetchWithAgent: typeof fetch = (input, init) =>
  fetch(input, { ...init, agent: agentFor } as RequestInit).then(
    (response) => {
      if (response.status >= 500) backendFailed(failureReason('the backend', response.status, null));
      return response;
    },
    (error: unknown) => {
      if (!init?.signal?.aborted) backendFailed(failureReason('the backend', null, error));
      throw error;
    },
  );

/** What an answer of the data API tells outage.server.ts. */
function noteRestAnswer(status: number, body: Buffer): void {
  if (status < 500) backendAnswered();
  else backendFailed(failureReason('the data API', status, body.toString('utf8')));
}

/**
 * A request node:http carries here: to the REST API (PostgREST answers JSON and never redirects), with
 * no body or a text one. The rest (auth, which may redirect; storage's files; form data, streams,
 * Request objects) goes through fetch, which follows redirects and streams bodies.
 */
function isSmallJsonExchange(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): URL | null {
  if (typeof input !== 'string' && !(input instanceof URL)) return null;
  const body = init?.body;
  if (body !== undefined && body !== null && typeof body !== 'string') return null;
  const url = new URL(input);
  return url.pathname.startsWith('/rest/v1/') ? url : null;
}

/** One request through node:http, its answer read whole into a Response. */
function requestWhole(url: URL, init: RequestInit = {}): Promise<Response> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const body = typeof init.body === 'string' ? init.body : undefined;
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const method = (init.method ?? 'GET').toUpperCase();
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      { method, headers, agent: agentFor(url), signal: init.signal ?? undefined },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', reject);
        answer.on('end', () => {
          const answerHeaders = new Headers();
          for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2)
            answerHeaders.append(answer.rawHeaders[i] ?? '', answer.rawHeaders[i + 1] ?? '');
          const status = answer.statusCode ?? 502;
          const whole = Buffer.concat(chunks);
          noteRestAnswer(status, whole);
          // These statuses have no body, and a Response refuses one.
          const empty = status === 204 || status === 205 || status === 304 || method === 'HEAD';
          resolve(
            new Response(empty ? null : (whole as Uint8Array<ArrayBuffer>), {
              status,
              statusText: answer.statusMessage,
              headers: answerHeaders,
            }),
          );
        });
      },
    );
    // As fetch does: a network failure rejects with a TypeError, the cause attached.
    request.on('error', (error) => {
      if (init.signal?.aborted) return reject(error);
      backendFailed(failureReason('the data API', null, error));
      reject(new TypeError('fetch failed', { cause: error }));
    });
    request.end(body);
  });
}

/**
 * A JSON POST through node:http, answered as status and text: for a call made without a Supabase
 * client (session/supabase.server.ts `rpcAsUser`), where even building a Response would be work for nothing.
 * A network failure rejects, as fetch's does.
 */
export function postJson(
  url: URL,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
        agent: agentFor(url),
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', reject);
        answer.on('end', () => {
          const status = answer.statusCode ?? 502;
          const whole = Buffer.concat(chunks);
          noteRestAnswer(status, whole);
          resolve({ status, text: whole.toString('utf8') });
        });
      },
    );
    request.on('error', (error) => {
      backendFailed(failureReason('the data API', null, error));
      reject(new TypeError('fetch failed', { cause: error }));
    });
    request.end(body);
  });
}

/** fetch for the Supabase clients: node:http for small JSON exchanges, fetch with keep-alive otherwise. */
export const backendFetch: typeof fetch = (input, init) => {
  const url = isSmallJsonExchange(input, init);
  return url ? requestWhole(url, init) : fetchWithAgent(input, init);
};
