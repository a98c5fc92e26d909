// What expires, through the production build against the shared test backend: an emailed code and a recovery link work for 10 minutes and not after (SPEC section 9);
// a PKCE sign-in started more than 5 minutes ago cannot be finished (GoTrue's flow state lifetime);
// a download link the app hands out is signed for 60 seconds. Time is moved by dating the backend's
// rows back, as they would be after the wait.
import { randomUUID } from 'node:crypto';
import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JWT_SECRET } from '../../emulator/keys.ts';
import {
  NO_SIGN_IN_LIMITS,
  cookiesOf,
  createAppScene,
  postFile,
  postForm,
  startAppServer,
  type AppServer,
} from '../support/app-server.ts';
import { awaitMail, backend, confirmedUser } from '../support/backend.ts';
import { sql } from '../support/db.ts';

let app: AppServer;

beforeAll(async () => {
  app = await startAppServer(backend(), NO_SIGN_IN_LIMITS);
}, 60_000);

afterAll(async () => {
  await app?.stop();
});

/** Dates back when the auth server sent `email` its code or link (GoTrue's *_sent_at columns). */
const sentAgo = (email: string, seconds: number) =>
  sql(
    `update auth.users set recovery_sent_at = now() - make_interval(secs => $2),
        confirmation_sent_at = now() - make_interval(secs => $2) where email = $1`,
    [email, seconds],
  );

/** Asks the app for a sign-in code for `email`; returns the code and the browser's PKCE cookie. */
async function sendCode(email: string): Promise<{ code: string; verifier: string; link: string }> {
  const sent = await postForm(app, '/login/code', { intent: 'send', email, next: '', website: '' });
  expect(sent.status).toBe(302);
  const mail = await awaitMail(email, { subject: /sign-in code/ });
  const code = /\b(\d{6})\b/.exec(mail.Text)?.[1] ?? '';
  const link = /href="([^"]*\/auth\/v1\/verify[^"]*)"/.exec(mail.HTML)?.[1]?.replace(/&amp;/g, '&') ?? '';
  expect(code).toMatch(/^\d{6}$/);
  return { code, verifier: cookiesOf(sent), link };
}

const CODE_INVALID = 'That code is not valid or has expired.';
const LINK_INVALID = 'This link has expired or was already used. Request a new one.';

describe('an emailed code', () => {
  it('signs in 9 minutes 50 seconds after it was sent', async () => {
    const { email } = await confirmedUser('code-fresh');
    const { code, verifier } = await sendCode(email);
    await sentAgo(email, 590);
    const res = await postForm(app, '/login/code', { email, code, next: '', website: '' }, verifier);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/w');
  });

  it('is refused 10 minutes 10 seconds after it was sent, with the catalogue message', async () => {
    const { email } = await confirmedUser('code-stale');
    const { code, verifier } = await sendCode(email);
    await sentAgo(email, 610);
    const res = await postForm(app, '/login/code', { email, code, next: '', website: '' }, verifier);
    expect(res.status).toBe(400);
    expect(res.headers.get('set-cookie') ?? '').not.toMatch(/auth-token=[^;]/);
    expect(await res.text()).toContain(CODE_INVALID);
  });
});

describe('an emailed recovery link', () => {
  async function recoveryLink(email: string): Promise<string> {
    const sent = await postForm(app, '/forgot-password', { email, website: '' });
    expect(sent.status).toBe(302);
    const mail = await awaitMail(email, { subject: /Reset your Crewboard password/ });
    const tokenHash = /token_hash=([^&"]+)/.exec(mail.HTML)?.[1];
    expect(tokenHash).toBeTruthy();
    return tokenHash ?? '';
  }

  it('works within 10 minutes and is refused after, with the catalogue message', async () => {
    const { email: fresh } = await confirmedUser('link-fresh');
    const freshHash = await recoveryLink(fresh);
    await sentAgo(fresh, 590);
    const ok = await postForm(app, '/auth/confirm', { token_hash: freshHash, type: 'recovery', next: '' });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe('/reset-password');

    const { email: stale } = await confirmedUser('link-stale');
    const staleHash = await recoveryLink(stale);
    await sentAgo(stale, 610);
    const refused = await postForm(app, '/auth/confirm', {
      token_hash: staleHash,
      type: 'recovery',
      next: '',
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(LINK_INVALID);
  });
});

describe('a PKCE sign-in', () => {
  /** Follows the emailed link through the auth server, which answers with the app's ?code=. */
  async function authCode(link: string): Promise<string> {
    const verified = await fetch(link, { redirect: 'manual' });
    const code = new URL(verified.headers.get('location') ?? '', app.url).searchParams.get('code');
    expect(code).toBeTruthy();
    return code ?? '';
  }

  /** Dates back the flow state of `code`: its start, and when the link turned into the code. */
  const flowAgo = (code: string, seconds: number) =>
    sql(
      `update auth.flow_state set created_at = now() - make_interval(secs => $2),
          auth_code_issued_at = now() - make_interval(secs => $2) where auth_code = $1`,
      [code, seconds],
    );

  it('is finished within 5 minutes of its start and not after', async () => {
    const { email: fresh } = await confirmedUser('pkce-fresh');
    const first = await sendCode(fresh);
    const freshCode = await authCode(first.link);
    await flowAgo(freshCode, 290);
    const ok = await fetch(`${app.url}/auth/callback?code=${freshCode}`, {
      headers: { Cookie: first.verifier },
      redirect: 'manual',
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe('/w');

    const { email: stale } = await confirmedUser('pkce-stale');
    const second = await sendCode(stale);
    const staleCode = await authCode(second.link);
    await flowAgo(staleCode, 310);
    const refused = await fetch(`${app.url}/auth/callback?code=${staleCode}`, {
      headers: { Cookie: second.verifier },
      redirect: 'manual',
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('set-cookie') ?? '').not.toMatch(/auth-token=[^;]/);
    expect(await refused.text()).toContain(LINK_INVALID);
  });
});

describe('a download link', () => {
  it('is signed for 60 seconds: it works when handed out, and the same link past its time does not', async () => {
    const scene = await createAppScene(app, backend(), 'download');
    const created = await postForm(
      app,
      scene.projectPath,
      { intent: 'create', title: 'Has a file', status: scene.todo, key: randomUUID() },
      scene.cookie,
    );
    expect(created.status).toBe(302);
    const attached = await postFile(
      app,
      `${scene.projectPath}/t/1`,
      'file',
      new File(['the contents'], 'notes.txt', { type: 'text/plain' }),
      scene.cookie,
    );
    expect(attached.status).toBe(302);
    const panel = await (
      await fetch(`${app.url}${scene.projectPath}/t/1`, { headers: { Cookie: scene.cookie } })
    ).text();
    const download = /href="(\/w\/[^"]+\/files\/[0-9a-f-]{36})"/.exec(panel)?.[1];
    expect(download).toBeTruthy();

    const handedOut = await fetch(`${app.url}${download}`, {
      headers: { Cookie: scene.cookie },
      redirect: 'manual',
    });
    expect(handedOut.status).toBe(302);
    expect(handedOut.headers.get('cache-control')).toBe('no-store');
    const signed = new URL(handedOut.headers.get('location') ?? '');
    const token = signed.searchParams.get('token') ?? '';
    const claims = jose.decodeJwt(token);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(60);
    expect(Math.abs((claims.iat ?? 0) - Date.now() / 1000)).toBeLessThan(10);
    const now = await fetch(signed);
    expect(now.status).toBe(200);
    expect(now.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(await now.text()).toBe('the contents');

    // The same link 61 seconds later: its claims with the clock moved on, under the same key.
    const later = await new jose.SignJWT({
      ...claims,
      iat: (claims.iat ?? 0) - 61,
      exp: (claims.exp ?? 0) - 61,
    })
      .setProtectedHeader(jose.decodeProtectedHeader(token) as jose.JWTHeaderParameters)
      .sign(new TextEncoder().encode(JWT_SECRET));
    signed.searchParams.set('token', later);
    const expired = await fetch(signed);
    expect(expired.status).toBe(400);
    expect(await expired.json()).toMatchObject({
      error: 'InvalidJWT',
      message: '"exp" claim timestamp check failed',
    });
  });
});
