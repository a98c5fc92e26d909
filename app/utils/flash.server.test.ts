import { afterEach, describe, expect, it } from 'vitest';
import { reloadConfig } from './env.server.ts';
import { FLASH_COOKIE, FLASH_MESSAGES, flashCookieHeader, readFlash } from './flash.server.ts';

const SECRET = 'a-secret-for-the-flash-tests-of-32-characters';
const previous = process.env.SESSION_SECRET;
const previousTrustProxy = process.env.TRUST_PROXY;

function useSecret(secret: string | undefined) {
  if (secret === undefined) delete process.env.SESSION_SECRET;
  else process.env.SESSION_SECRET = secret;
  reloadConfig();
}

afterEach(() => {
  if (previousTrustProxy === undefined) delete process.env.TRUST_PROXY;
  else process.env.TRUST_PROXY = previousTrustProxy;
  useSecret(previous);
});

/** The name=value part of a Set-Cookie header, as the browser would send it back. */
function sentBack(setCookie: string): string {
  return setCookie.split(';')[0] ?? '';
}

function requestWith(cookie: string | null, url = 'http://localhost/account'): Request {
  return new Request(url, { headers: cookie === null ? {} : { Cookie: cookie } });
}

describe('the flash cookie', () => {
  it('carries a kind to the next request, which reads its sentence and clears it', async () => {
    useSecret(SECRET);
    const header = await flashCookieHeader('account_deleted', requestWith(null));
    const { flash, clear } = await readFlash(requestWith(`other=1; ${sentBack(header)}`));
    expect(flash?.message).toBe(FLASH_MESSAGES.account_deleted);
    expect(clear).toMatch(new RegExp(`^${FLASH_COOKIE}=;`));
    expect(clear).toContain('Max-Age=0');
  });

  it('is HttpOnly, SameSite=Lax, for the whole site, short-lived, and Secure only over https', async () => {
    useSecret(SECRET);
    const plain = await flashCookieHeader('profile_saved', requestWith(null));
    expect(plain).toContain('HttpOnly');
    expect(plain).toContain('SameSite=Lax');
    expect(plain).toContain('Path=/');
    expect(plain).toMatch(/Max-Age=(\d+)/);
    expect(Number(/Max-Age=(\d+)/.exec(plain)?.[1])).toBeLessThanOrEqual(300);
    expect(plain).not.toContain('Secure');
    expect(
      await flashCookieHeader('profile_saved', requestWith(null, 'https://crewboard.example/')),
    ).toContain('Secure');
    // Behind a TLS proxy: only when TRUST_PROXY says to believe what it forwards.
    const proxied = new Request('http://localhost/', { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(await flashCookieHeader('profile_saved', proxied)).not.toContain('Secure');
    process.env.TRUST_PROXY = 'true';
    useSecret(SECRET);
    expect(await flashCookieHeader('profile_saved', proxied)).toContain('Secure');
  });

  it('gives each flash its own id, so the same sentence twice shows twice', async () => {
    useSecret(SECRET);
    const cookie = sentBack(await flashCookieHeader('profile_saved', requestWith(null)));
    const first = await readFlash(requestWith(cookie));
    const second = await readFlash(requestWith(cookie));
    expect(first.flash?.id).not.toBe(second.flash?.id);
  });

  it('shows nothing and sets nothing when there is no flash', async () => {
    useSecret(SECRET);
    expect(await readFlash(requestWith(null))).toEqual({ flash: null, clear: null });
    expect(await readFlash(requestWith('crewboard_flashy=1; sb-x-auth-token=abc'))).toEqual({
      flash: null,
      clear: null,
    });
  });

  it('ignores a tampered cookie, and clears it', async () => {
    useSecret(SECRET);
    const cookie = sentBack(await flashCookieHeader('profile_saved', requestWith(null)));
    const [name, value = ''] = cookie.split('=');
    // Another kind, with the signature of the first.
    const forgedValue = btoa(JSON.stringify({ kind: 'account_deleted' }));
    const [, signature] = decodeURIComponent(value).split('.');
    for (const forged of [
      `${name}=${encodeURIComponent(`${forgedValue}.${signature}`)}`,
      `${name}=${value.slice(0, -3)}abc`,
      `${name}=${forgedValue}`,
      `${name}=`,
    ]) {
      const { flash, clear } = await readFlash(requestWith(forged));
      expect(flash, forged).toBeNull();
      expect(clear, forged).toContain('Max-Age=0');
    }
  });

  it('ignores a cookie signed with another secret', async () => {
    useSecret('someone-elses-secret-of-32-characters-or-more');
    const cookie = sentBack(await flashCookieHeader('profile_saved', requestWith(null)));
    useSecret(SECRET);
    expect((await readFlash(requestWith(cookie))).flash).toBeNull();
  });

  it('accepts a cookie signed with the previous secret while it is still listed', async () => {
    const next = 'the-next-secret-for-the-flash-tests-32-chars';
    useSecret(SECRET);
    const cookie = sentBack(await flashCookieHeader('avatar_removed', requestWith(null)));
    useSecret(`${next},${SECRET}`);
    expect((await readFlash(requestWith(cookie))).flash?.message).toBe(FLASH_MESSAGES.avatar_removed);
  });

  it('shows only its own sentences: a correctly signed unknown kind shows nothing', async () => {
    useSecret(SECRET);
    const { createCookie } = await import('@remix-run/node');
    const signed = await createCookie(FLASH_COOKIE, { secrets: [SECRET] }).serialize({
      kind: '<img src=x onerror=alert(1)>',
    });
    expect((await readFlash(requestWith(sentBack(signed)))).flash).toBeNull();
  });
});
