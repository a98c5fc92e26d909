import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { PEER_HEADER } from './client-address.server.ts';
import { guardRequest, isCrossSite } from './request-guard.server.ts';

function fakeRequest(method: string, headers: Record<string, string>, remoteAddress = '198.51.100.7') {
  return { method, url: '/login', headers: { ...headers }, socket: { remoteAddress }, resume: () => {} };
}

function fakeResponse() {
  const sent: { status?: number; body?: string } = {};
  return {
    sent,
    writeHead(status: number) {
      sent.status = status;
      return this;
    },
    end(body: string) {
      sent.body = body;
    },
  };
}

describe('isCrossSite', () => {
  it.each([
    ['POST', { host: 'app.test', origin: 'https://evil.example' }, true],
    ['POST', { host: 'app.test', origin: 'null' }, true],
    ['POST', { host: 'app.test', origin: 'not a url' }, true],
    [
      'POST',
      { 'x-forwarded-host': 'app.example', host: 'internal:3000', origin: 'https://app.example' },
      false,
    ],
    ['POST', { host: 'app.test', origin: 'http://app.test' }, false],
    // Behind a TLS proxy the visitor's origin is https while the app is reached over http.
    ['POST', { host: 'app.test', origin: 'https://app.test', 'x-forwarded-proto': 'https' }, false],
    ['POST', { host: 'app.test' }, false],
    ['GET', { host: 'app.test', origin: 'https://evil.example' }, false],
    ['DELETE', { host: 'app.test', origin: 'https://evil.example' }, true],
  ])('%s with %j: %s', (method, headers, expected) => {
    expect(isCrossSite({ method, headers })).toBe(expected);
  });
});

describe('guardRequest', () => {
  it('replaces a peer address the client sent with the socket address', () => {
    const req = fakeRequest('GET', { host: 'app.test', [PEER_HEADER]: '203.0.113.9' });
    const res = fakeResponse();
    expect(guardRequest(req as unknown as IncomingMessage, res as unknown as ServerResponse)).toBe(false);
    expect(req.headers[PEER_HEADER]).toBe('198.51.100.7');
  });

  it('answers a cross-site post itself, with the 403 page', () => {
    const req = fakeRequest('POST', { host: 'app.test', origin: 'https://evil.example' });
    const res = fakeResponse();
    expect(guardRequest(req as unknown as IncomingMessage, res as unknown as ServerResponse)).toBe(true);
    expect(res.sent.status).toBe(403);
    expect(res.sent.body).toContain("You don't have access to this.");
  });
});
