import { randomBytes } from 'node:crypto';
import type {
  AppLoadContext,
  EntryContext,
  HandleDataRequestFunction,
  HandleErrorFunction,
} from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { renderToString } from 'react-dom/server';
import { checkConfigAtStart, supabaseEnv } from './utils/env.server.ts';
import { NonceProvider } from './utils/nonce.tsx';
import { installRequestGuard } from './utils/request-guard.server.ts';
import { dataSecurityHeaders, securityHeaders } from './utils/security-headers.server.ts';
import { applySessionHeaders } from './utils/session/supabase.server.ts';
import { compressedResponse } from './utils/compression.server.ts';

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
  // No route defers data, so the page is complete when it is rendered: it is rendered whole, to a
  // string (no stream of small encoded chunks to gather), then compressed once
  // (app/utils/compression.server.ts). An error thrown while rendering goes to Remix, which renders
  // the error boundary instead.
  const html = renderToString(
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceProvider>,
  );
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  return compressedResponse(Buffer.from(`<!DOCTYPE html>${html}`), request, {
    headers: responseHeaders,
    status: responseStatusCode,
  });
}

/**
 * Client-side navigations and fetcher calls: their responses carry the refreshed session and the
 * security headers too, and are compressed as documents are.
 */
export const handleDataRequest: HandleDataRequestFunction = async (response, { request, context }) => {
  applySessionHeaders(response.headers, context);
  for (const [name, value] of Object.entries(dataSecurityHeaders(request))) response.headers.set(name, value);
  if (!response.body || response.headers.has('Content-Encoding')) return response;
  const body = new Uint8Array(await response.arrayBuffer());
  return compressedResponse(body, request, { status: response.status, headers: response.headers });
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
