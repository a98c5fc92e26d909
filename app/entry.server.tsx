import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type {
  AppLoadContext,
  EntryContext,
  HandleDataRequestFunction,
  HandleErrorFunction,
} from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { checkConfigAtStart, supabaseEnv } from './utils/env.server.ts';
import { NonceProvider } from './utils/nonce.tsx';
import { installRequestGuard } from './utils/request-guard.server.ts';
import { dataSecurityHeaders, securityHeaders } from './utils/security-headers.server.ts';
import { applySessionHeaders } from './utils/supabase.server.ts';

const ABORT_DELAY = 5_000;

// Once, when the server build loads: refuse to run on missing settings, and put the request guard
// (cross-site posts, the visitor's address) in front of Remix.
checkConfigAtStart();
installRequestGuard();

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Cookies the request's Supabase client wrote (a refreshed session) ride on the document.
  applySessionHeaders(responseHeaders, loadContext);
  const nonce = randomBytes(16).toString('base64');
  for (const [name, value] of Object.entries(securityHeaders(request, nonce, supabaseEnv().url))) {
    responseHeaders.set(name, value);
  }
  // Bots and no-JS clients get the whole document at once; browsers get it streamed.
  const readyEvent = isbot(request.headers.get('user-agent') ?? '') ? 'onAllReady' : 'onShellReady';
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

/** Client-side navigations and fetcher calls: their responses carry the refreshed session and the security headers too. */
export const handleDataRequest: HandleDataRequestFunction = (response, { request, context }) => {
  applySessionHeaders(response.headers, context);
  for (const [name, value] of Object.entries(dataSecurityHeaders(request))) response.headers.set(name, value);
  return response;
};

/**
 * Server errors are logged in full, except the cross-site posts Remix refuses before any action runs:
 * those are attacks or stale tabs, not bugs, and get one line.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (error instanceof Error && error.message.includes('origin` header from a forwarded action request')) {
    console.warn(`Refused a cross-site ${request.method} to ${new URL(request.url).pathname}`);
    return;
  }
  console.error(error);
};
