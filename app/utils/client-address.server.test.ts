import { describe, expect, it } from 'vitest';
import {
  clientAddress,
  inRange,
  PEER_HEADER,
  requestUsedHttps,
  visitorUsedHttps,
} from './client-address.server.ts';

const request = (peer: string, forwarded?: string) =>
  new Request('http://app.test/login', {
    headers: { [PEER_HEADER]: peer, ...(forwarded === undefined ? {} : { 'X-Forwarded-For': forwarded }) },
  });

describe('clientAddress', () => {
  it('uses the socket and ignores X-Forwarded-For when no proxy is trusted', () => {
    expect(clientAddress(request('198.51.100.7', '203.0.113.9'), { kind: 'none' })).toBe('198.51.100.7');
    expect(clientAddress(request('::ffff:127.0.0.1'), { kind: 'none' })).toBe('127.0.0.1');
  });

  it('takes the entry the nearest proxy added, not ones the visitor wrote', () => {
    const spoofed = request('10.0.0.2', '1.2.3.4, 203.0.113.9');
    expect(clientAddress(spoofed, { kind: 'nearest' })).toBe('203.0.113.9');
    expect(clientAddress(request('10.0.0.2'), { kind: 'nearest' })).toBe('10.0.0.2');
    expect(clientAddress(request('10.0.0.2', 'not-an-ip'), { kind: 'nearest' })).toBe('10.0.0.2');
  });

  it('walks past every trusted proxy in a list', () => {
    const trust = { kind: 'list' as const, proxies: ['10.0.0.0/8', '192.168.1.1'] };
    expect(clientAddress(request('10.0.0.2', '1.2.3.4, 203.0.113.9, 192.168.1.1'), trust)).toBe(
      '203.0.113.9',
    );
    // The socket is not a trusted proxy: whatever it forwarded is the visitor's own claim.
    expect(clientAddress(request('198.51.100.7', '203.0.113.9'), trust)).toBe('198.51.100.7');
    // Every hop trusted: the leftmost is as far as we can see.
    expect(clientAddress(request('10.0.0.2', '10.0.0.3'), trust)).toBe('10.0.0.3');
  });
});

describe('inRange', () => {
  it.each([
    ['10.1.2.3', '10.0.0.0/8', true],
    ['11.1.2.3', '10.0.0.0/8', false],
    ['192.168.1.1', '192.168.1.1', true],
    ['::1', '::1', true],
    ['2001:db8::5', '2001:db8::/32', true],
    ['2001:db9::5', '2001:db8::/32', false],
    ['::ffff:10.0.0.1', '10.0.0.0/8', true],
    ['10.0.0.1', '::1', false],
  ])('%s in %s: %s', (address, range, expected) => {
    expect(inRange(address, range)).toBe(expected);
  });
});

describe('visitorUsedHttps', () => {
  const list = { kind: 'list' as const, proxies: ['10.0.0.0/8'] };

  it('believes X-Forwarded-Proto only from a proxy TRUST_PROXY trusts', () => {
    expect(visitorUsedHttps(false, '203.0.113.9', 'https', { kind: 'none' })).toBe(false);
    expect(visitorUsedHttps(false, '203.0.113.9', 'https', { kind: 'nearest' })).toBe(true);
    expect(visitorUsedHttps(false, '10.0.0.2', 'https', list)).toBe(true);
    expect(visitorUsedHttps(false, '203.0.113.9', 'https', list)).toBe(false);
    expect(visitorUsedHttps(false, undefined, 'https', list)).toBe(false);
  });

  it('takes the entry the nearest proxy wrote, in any letter case', () => {
    expect(visitorUsedHttps(false, '10.0.0.2', 'http, https', list)).toBe(true);
    expect(visitorUsedHttps(false, '10.0.0.2', 'https, http', list)).toBe(false);
    expect(visitorUsedHttps(false, '10.0.0.2', 'HTTPS', { kind: 'nearest' })).toBe(true);
    expect(visitorUsedHttps(false, '10.0.0.2', null, { kind: 'nearest' })).toBe(false);
  });

  it("is true on the server's own TLS connection, whatever the headers say", () => {
    expect(visitorUsedHttps(true, '203.0.113.9', 'http', { kind: 'none' })).toBe(true);
  });

  it('reads a request the request guard has seen', () => {
    const proxied = new Request('http://app.test/login', {
      headers: { [PEER_HEADER]: '10.0.0.2', 'X-Forwarded-Proto': 'https' },
    });
    expect(requestUsedHttps(proxied, list)).toBe(true);
    expect(requestUsedHttps(proxied, { kind: 'none' })).toBe(false);
    expect(requestUsedHttps(new Request('https://app.test/login'), { kind: 'none' })).toBe(true);
  });
});
