import { afterEach, describe, expect, it } from 'vitest';
import { PEER_HEADER } from './client-address.server.ts';
import { reloadConfig } from './env.server.ts';
import { requireSameSite } from './request.server.ts';

const previous = process.env.TRUST_PROXY;

function trustProxy(value: string | undefined) {
  if (value === undefined) delete process.env.TRUST_PROXY;
  else process.env.TRUST_PROXY = value;
  reloadConfig();
}

afterEach(() => trustProxy(previous));

/** A POST as remix-serve hands it over: its url says how the app itself was reached. */
function post(url: string, headers: Record<string, string>): Request {
  return new Request(url, { method: 'POST', headers: { [PEER_HEADER]: '10.0.0.2', ...headers } });
}

function status(request: Request): number {
  try {
    requireSameSite(request);
    return 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

describe('requireSameSite', () => {
  it('lets a post through by Sec-Fetch-Site, and refuses a cross-site one', () => {
    expect(status(post('http://app.test/login', { 'Sec-Fetch-Site': 'same-origin' }))).toBe(200);
    expect(status(post('http://app.test/login', { 'Sec-Fetch-Site': 'cross-site' }))).toBe(403);
  });

  it('compares Origin with the address the app was reached at, when Sec-Fetch-Site is missing', () => {
    expect(status(post('http://app.test/login', { Origin: 'http://app.test' }))).toBe(200);
    expect(status(post('http://app.test/login', { Origin: 'https://evil.example' }))).toBe(403);
    expect(status(post('http://app.test/login', {}))).toBe(403);
  });

  it('behind a TLS proxy that TRUST_PROXY trusts, takes the https origin the visitor used', () => {
    const behindProxy = () =>
      post('http://app.test/login', { Origin: 'https://app.test', 'X-Forwarded-Proto': 'https' });
    trustProxy('true');
    expect(status(behindProxy())).toBe(200);
    trustProxy('10.0.0.0/8');
    expect(status(behindProxy())).toBe(200);
    // A proxy given by TRUST_PROXY behind another host name (X-Forwarded-Host).
    const renamed = post('http://internal:3000/login', {
      Origin: 'https://crewboard.example',
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'crewboard.example',
    });
    expect(status(renamed)).toBe(200);
  });

  it('does not believe X-Forwarded-Proto without TRUST_PROXY, or from a proxy it does not name', () => {
    const claimed = () =>
      post('http://app.test/login', { Origin: 'https://app.test', 'X-Forwarded-Proto': 'https' });
    trustProxy(undefined);
    expect(status(claimed())).toBe(403);
    trustProxy('192.168.0.0/16');
    expect(status(claimed())).toBe(403);
  });
});
