// The auth service's pure parts: token material, redirect rules, error shapes.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateOtp, pkceMatches, secureAlphanumeric, tokenHash } from './crypto.ts';
import { AuthError, OAuthError, errorReply, requestedApiVersion, weakPassword } from './errors.ts';
import { rateLimitKey } from './middleware.ts';
import { isRedirectUrlValid, resolveRedirect } from './redirects.ts';

describe('token material', () => {
  it('makes numeric codes and GoTrue token hashes', () => {
    expect(generateOtp(6)).toMatch(/^\d{6}$/);
    expect(tokenHash('a@b.c', '123456')).toBe(createHash('sha224').update('a@b.c123456').digest('hex'));
  });

  it('makes alphanumeric refresh tokens that do not repeat', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => secureAlphanumeric(12)));
    expect(tokens.size).toBe(200);
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9]{12}$/);
  });

  it('checks PKCE verifiers for s256 and plain', () => {
    const verifier = 'a'.repeat(64);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expect(pkceMatches(challenge, 's256', verifier)).toBe(true);
    expect(pkceMatches(challenge, 'S256', verifier)).toBe(true);
    expect(pkceMatches(challenge, 's256', 'b'.repeat(64))).toBe(false);
    expect(pkceMatches(verifier, 'plain', verifier)).toBe(true);
  });
});

describe('whom a request is limited by', () => {
  // internal/api/middleware.go, performRateLimitingWithHeader.
  it('is nobody without a configured header, as in the CLI stack', () => {
    expect(rateLimitKey('', { 'x-forwarded-for': '10.0.0.1' })).toBeUndefined();
  });

  it('is the first value of the configured header, and nobody when it has none', () => {
    const header = 'X-Forwarded-For';
    expect(rateLimitKey(header, { 'x-forwarded-for': ' 10.0.0.1 , 10.0.0.2' })).toBe('10.0.0.1');
    expect(rateLimitKey(header, { 'x-forwarded-for': ['10.0.0.3', '10.0.0.4'] })).toBe('10.0.0.3');
    expect(rateLimitKey(header, {})).toBeUndefined();
    expect(rateLimitKey(header, { 'x-forwarded-for': ' , 10.0.0.2' })).toBeUndefined();
    expect(rateLimitKey('X-Real-Ip', { 'x-forwarded-for': '10.0.0.1', 'x-real-ip': 'a' })).toBe('a');
  });
});

describe('redirect targets', () => {
  const site = 'http://localhost:3000';
  const allow = ['https://preview-*.example.com/**', 'http://127.0.0.1:3000/**'];

  it('follows the site origin, loopback ports and allow-listed globs', () => {
    expect(isRedirectUrlValid(site, allow, 'http://localhost:3000/auth/callback')).toBe(true);
    expect(isRedirectUrlValid(site, allow, 'http://localhost:4000/x')).toBe(true);
    expect(isRedirectUrlValid(site, allow, 'https://preview-12.example.com/a/b')).toBe(true);
    expect(isRedirectUrlValid(site, allow, 'http://127.0.0.1:3000/auth/confirm')).toBe(true);
  });

  it('refuses everything else and falls back to the site URL', () => {
    expect(isRedirectUrlValid(site, allow, 'https://evil.example/auth')).toBe(false);
    expect(isRedirectUrlValid(site, allow, 'https://preview-1.evil.example.com.attacker.net/')).toBe(false);
    expect(isRedirectUrlValid(site, allow, 'javascript:alert(1)')).toBe(false);
    expect(resolveRedirect(site, allow, 'https://evil.example', undefined)).toBe(site);
    expect(resolveRedirect(site, allow, null, 'http://localhost:3000/from')).toBe(
      'http://localhost:3000/from',
    );
  });
});

describe('error shapes', () => {
  it('uses {code, message} and echoes the version for 2024-01-01 clients', () => {
    const reply = errorReply(
      new AuthError(400, 'invalid_credentials', 'Invalid login credentials'),
      requestedApiVersion('2024-01-01'),
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ code: 'invalid_credentials', message: 'Invalid login credentials' });
    expect(reply.headers['X-Supabase-Api-Version']).toBe('2024-01-01');
    expect(reply.headers['x-sb-error-code']).toBe('invalid_credentials');
  });

  it('uses the legacy shape without a version, and carries weak-password reasons', () => {
    const reply = errorReply(weakPassword('Password should be at least 8 characters.', ['length']), null);
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({
      code: 422,
      error_code: 'weak_password',
      msg: 'Password should be at least 8 characters.',
      weak_password: { reasons: ['length'] },
    });
    expect(requestedApiVersion('2023-12-31')).toBeNull();
  });

  it('answers OAuth errors and unexpected failures without internals', () => {
    expect(errorReply(new OAuthError('invalid_request', 'refresh_token required'), null).body).toEqual({
      error: 'invalid_request',
      error_description: 'refresh_token required',
    });
    const boom = errorReply(new Error('connection terminated at db.ts:12'), '2024-01-01');
    expect(boom.status).toBe(500);
    expect(JSON.stringify(boom.body)).not.toContain('db.ts');
  });
});
