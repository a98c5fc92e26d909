// `[auth] signing_keys_path`: the CLI's asymmetric signing keys (a JSON array of private JWKs, resolved
// from supabase/). GoTrue signs user tokens with the first and accepts tokens signed by any
// (internal/conf/jwk.go, GOTRUE_JWT_KEYS); the JWKS publishes their public halves, and PostgREST,
// storage and realtime accept what they sign. auth-js's own suite mints its keys this way.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, startBackend } from '../backend.ts';

const root = mkdtempSync(path.join(tmpdir(), 'crewboard-signing-keys-'));
const kid = randomUUID();
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privateJwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
let backend: Backend;

const sign = (claims: Record<string, unknown>) =>
  jose
    .importJWK(privateJwk, 'RS256')
    .then((key) =>
      new jose.SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .setExpirationTime('1h')
        .sign(key),
    );

beforeAll(async () => {
  chmodSync(root, 0o755); // as root, PostgreSQL runs as `postgres` and must enter the data directory
  mkdirSync(path.join(root, 'supabase'));
  writeFileSync(path.join(root, 'supabase', 'signing_keys.json'), JSON.stringify([privateJwk]));
  writeFileSync(
    path.join(root, 'supabase', 'config.toml'),
    '[auth]\nsigning_keys_path = "./signing_keys.json"\n',
  );
  backend = await startBackend({
    projectRoot: root,
    dataDir: path.join(root, 'data'),
    apiPort: 0,
    dbPort: 0,
    mailPort: 0,
    smtpPort: 0,
    fallbackToFreePorts: true,
  });
}, 120_000);

afterAll(async () => {
  await backend?.stop();
  rmSync(root, { recursive: true, force: true });
});

const api = (route: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${backend.apiUrl}${route}`, {
    ...init,
    headers: {
      apikey: backend.anonKey,
      'Content-Type': 'application/json',
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
    },
  });

describe('signing keys from config.toml', () => {
  it('publishes their public halves, signs sessions with the first, and takes tokens they signed', async () => {
    const jwks = (await (await api('/auth/v1/.well-known/jwks.json')).json()) as { keys: jose.JWK[] };
    expect(jwks.keys).toEqual([expect.objectContaining({ kty: 'RSA', kid, alg: 'RS256', n: privateJwk.n })]);
    expect(JSON.stringify(jwks)).not.toContain(String(privateJwk.d));

    // The admin API takes a service_role token signed by the project's key.
    const email = `rs256-${randomUUID()}@example.test`;
    const created = await api('/auth/v1/admin/users', {
      method: 'POST',
      token: await sign({ role: 'service_role' }),
      body: JSON.stringify({ email, password: 'a-good-password', email_confirm: true }),
    });
    expect(created.status).toBe(200);

    const session = (await (
      await api('/auth/v1/token?grant_type=password', {
        method: 'POST',
        body: JSON.stringify({ email, password: 'a-good-password' }),
      })
    ).json()) as { access_token: string };
    expect(jose.decodeProtectedHeader(session.access_token)).toMatchObject({ alg: 'RS256', kid });
    const verified = await jose.jwtVerify(session.access_token, jose.createLocalJWKSet(jwks));
    expect(verified.payload.email).toBe(email);

    // PostgREST and storage accept the RS256 session too.
    expect((await api('/rest/v1/', { token: session.access_token })).status).toBe(200);
    expect((await api('/storage/v1/bucket', { token: session.access_token })).status).toBe(200);
    // A token signed by a key the project does not hold is refused.
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const forged = await new jose.SignJWT({ role: 'service_role' })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setExpirationTime('1h')
      .sign(stranger);
    expect((await api('/auth/v1/admin/users', { token: forged })).status).toBe(403);
  });
});
