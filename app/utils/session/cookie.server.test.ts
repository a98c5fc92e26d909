import { createChunks, stringToBase64URL } from '@supabase/ssr';
import { describe, expect, it } from 'vitest';
import { sessionFromCookies } from './cookie.server.ts';

const KEY = 'sb-127-auth-token';

// What auth-js stores: the session as JSON, with the user, which is what makes a cookie grow past
// one chunk.
function storedSession(accessToken: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    access_token: accessToken,
    refresh_token: 'refresh-1',
    expires_at: 1_900_000_000,
    expires_in: 3600,
    token_type: 'bearer',
    user: { id: 'u1', email: 'ada@example.test', user_metadata: { note: 'é'.repeat(4_000) } },
    ...extra,
  });
}

// The cookies @supabase/ssr writes for a stored value (cookies.ts applyServerStorage, base64url encoding).
const written = (value: string) => createChunks(KEY, `base64-${stringToBase64URL(value)}`);

describe('sessionFromCookies', () => {
  it('reads a session @supabase/ssr split into chunks', () => {
    const cookies = written(storedSession('token-a'));
    expect(cookies.length).toBeGreaterThan(1);
    expect(sessionFromCookies([{ name: 'other', value: 'x' }, ...cookies], KEY)).toEqual({
      accessToken: 'token-a',
      expiresAt: 1_900_000_000,
    });
  });

  it('reads one cookie, base64url or raw JSON', () => {
    const small = JSON.stringify({ access_token: 't', refresh_token: 'r', expires_at: 5 });
    expect(sessionFromCookies([{ name: KEY, value: `base64-${stringToBase64URL(small)}` }], KEY)).toEqual({
      accessToken: 't',
      expiresAt: 5,
    });
    expect(sessionFromCookies([{ name: KEY, value: small }], KEY)).toEqual({
      accessToken: 't',
      expiresAt: 5,
    });
  });

  it('prefers the unchunked cookie and stops at the first missing chunk, as @supabase/ssr does', () => {
    const whole = JSON.stringify({ access_token: 'whole', refresh_token: 'r', expires_at: 5 });
    expect(
      sessionFromCookies([{ name: KEY, value: whole }, ...written(storedSession('chunked'))], KEY),
    ).toMatchObject({ accessToken: 'whole' });
    const [first, , third] = written(storedSession('gap'));
    expect(sessionFromCookies([first!, third!], KEY)).toBe('unreadable');
  });

  it('tells no session from one that cannot be used', () => {
    expect(sessionFromCookies([], KEY)).toBe('none');
    expect(sessionFromCookies([{ name: KEY, value: '' }], KEY)).toBe('none');
    expect(sessionFromCookies([{ name: `${KEY}-code-verifier`, value: 'v' }], KEY)).toBe('none');
    expect(sessionFromCookies([{ name: KEY, value: 'base64-%%%' }], KEY)).toBe('unreadable');
    expect(sessionFromCookies([{ name: KEY, value: '{"access_token":"t"}' }], KEY)).toBe('unreadable');
    const noRefresh = JSON.stringify({ access_token: 't', refresh_token: '', expires_at: 5 });
    expect(sessionFromCookies([{ name: KEY, value: noRefresh }], KEY)).toBe('unreadable');
    const textExpiry = JSON.stringify({ access_token: 't', refresh_token: 'r', expires_at: '5' });
    expect(sessionFromCookies([{ name: KEY, value: textExpiry }], KEY)).toBe('unreadable');
  });
});
