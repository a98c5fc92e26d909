// Signing keys of the local backend.
//
// The anon and service_role keys are the Supabase CLI's well-known local development keys (HS256,
// public knowledge, never valid anywhere else). User access tokens are signed ES256 with a key
// generated once per data directory, and published as a JWKS so `getClaims()` verifies locally.
import { readFileSync, writeFileSync, existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as jose from 'jose';

export const JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
export const ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';
export const SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';

export interface SigningKeys {
  /** ES256 private key used to sign user access tokens. */
  privateKey: CryptoKey;
  /** Its public half, which verifies what the private key signed. */
  publicKey: CryptoKey;
  kid: string;
  /** The public half, as published at /auth/v1/.well-known/jwks.json. */
  publicJwk: jose.JWK;
  /** HS256 secret of the anon and service_role keys. */
  hmacSecret: Uint8Array;
  /** Everything PostgREST must accept: the ES256 public key and the HS256 secret. */
  postgrestJwks: { keys: jose.JWK[] };
}

interface StoredKey {
  kid: string;
  privateJwk: jose.JWK;
}

export async function loadSigningKeys(dataDir: string): Promise<SigningKeys> {
  const file = path.join(dataDir, 'jwt-signing-key.json');
  let stored: StoredKey;
  if (existsSync(file)) {
    stored = JSON.parse(readFileSync(file, 'utf8')) as StoredKey;
  } else {
    const { privateKey } = await jose.generateKeyPair('ES256', { extractable: true });
    stored = { kid: randomUUID(), privateJwk: await jose.exportJWK(privateKey) };
    writeFileSync(`${file}.tmp`, JSON.stringify(stored, null, 2), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  }
  const privateKey = await jose.importJWK({ ...stored.privateJwk, alg: 'ES256' }, 'ES256');
  if (!(privateKey instanceof CryptoKey)) throw new Error('ES256 signing key did not import as a CryptoKey');
  const { kty, crv, x, y } = stored.privateJwk;
  const publicJwk: jose.JWK = {
    kty,
    crv,
    x,
    y,
    kid: stored.kid,
    alg: 'ES256',
    use: 'sig',
    key_ops: ['verify'],
  };
  const publicKey = await jose.importJWK(publicJwk, 'ES256');
  if (!(publicKey instanceof CryptoKey)) throw new Error('ES256 public key did not import as a CryptoKey');
  const hmacSecret = new TextEncoder().encode(JWT_SECRET);
  return {
    privateKey,
    publicKey,
    kid: stored.kid,
    publicJwk,
    hmacSecret,
    postgrestJwks: {
      keys: [publicJwk, { kty: 'oct', k: jose.base64url.encode(hmacSecret), alg: 'HS256' }],
    },
  };
}

export type VerifiedClaims = jose.JWTPayload & Record<string, unknown>;

/**
 * Verifies a JWT the way the Supabase services do: HS256 with the project secret (the API keys,
 * and tokens minted by other tools), ES256 with the published key (user sessions).
 */
export async function verifyJwt(keys: SigningKeys, token: string): Promise<VerifiedClaims> {
  const header = jose.decodeProtectedHeader(token);
  if (header.alg === 'HS256') {
    const { payload } = await jose.jwtVerify(token, keys.hmacSecret, { algorithms: ['HS256'] });
    return payload;
  }
  if (header.alg === 'ES256') {
    if (header.kid !== undefined && header.kid !== keys.kid) {
      throw new jose.errors.JWSSignatureVerificationFailed('signing key not found');
    }
    const { payload } = await jose.jwtVerify(token, keys.publicKey, { algorithms: ['ES256'] });
    return payload;
  }
  throw new jose.errors.JOSEAlgNotAllowed(`unsupported signing algorithm ${String(header.alg)}`);
}
