// Signing keys of the local backend.
//
// The anon and service_role keys are the Supabase CLI's well-known local development keys (HS256,
// public knowledge, never valid anywhere else). User access tokens are signed ES256 with a key
// generated once per data directory (or with `[auth] signing_keys_path`'s keys), and published as a
// JWKS so `getClaims()` verifies locally.
import { readFileSync, writeFileSync, existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as jose from 'jose';

export const JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
export const ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';
export const SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';
/**
 * The CLI's opaque local keys (supabase/cli pkg/config/apikeys.go), as public as the two above: the
 * gateway turns them into the anon and service_role keys.
 */
export const PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH';
export const SECRET_KEY = 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz';

export interface SigningKeys {
  /** The private key that signs user access tokens, with its algorithm and key id. */
  privateKey: CryptoKey;
  alg: AsymmetricAlg;
  kid: string;
  /** Every published key by its id: what verifies the tokens the signing keys signed. */
  publicKeys: Map<string, { alg: AsymmetricAlg; key: CryptoKey }>;
  /** The public halves, as published at /auth/v1/.well-known/jwks.json. */
  publicJwks: jose.JWK[];
  /** HS256 secret of the anon and service_role keys. */
  hmacSecret: Uint8Array;
  /** Everything PostgREST must accept: the published keys and the HS256 secret. */
  postgrestJwks: { keys: jose.JWK[] };
}

/** The asymmetric algorithms GoTrue signs with (internal/conf/jwk.go); HS256 is the shared secret's. */
export type AsymmetricAlg = 'ES256' | 'RS256';
const ASYMMETRIC: ReadonlySet<string> = new Set(['ES256', 'RS256']);

interface StoredKey {
  kid: string;
  privateJwk: jose.JWK;
}

/** This data directory's own ES256 key, made on first use. */
async function ownKey(dataDir: string): Promise<jose.JWK> {
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
  return { ...stored.privateJwk, kid: stored.kid, alg: 'ES256' };
}

/** The fields of a private JWK that make its public half. */
function publicHalf(jwk: jose.JWK): jose.JWK {
  const { kty, crv, x, y, n, e, kid, alg } = jwk;
  const fields = kty === 'RSA' ? { kty, n, e } : { kty, crv, x, y };
  return { ...fields, kid, alg, use: 'sig', key_ops: ['verify'] };
}

/**
 * The keys user access tokens are signed and checked with: the private JWKs in `[auth]
 * signing_keys_path` when the project names one (the CLI's asymmetric keys; the first signs, all
 * verify, as GoTrue's GOTRUE_JWT_KEYS), else this data directory's own ES256 key.
 */
export async function loadSigningKeys(
  dataDir: string,
  signingKeysPath?: string | null,
): Promise<SigningKeys> {
  const privateJwks: jose.JWK[] = signingKeysPath
    ? (JSON.parse(readFileSync(signingKeysPath, 'utf8')) as jose.JWK[])
    : [await ownKey(dataDir)];
  const publicKeys = new Map<string, { alg: AsymmetricAlg; key: CryptoKey }>();
  const publicJwks: jose.JWK[] = [];
  for (const jwk of privateJwks) {
    if (!jwk.alg || !ASYMMETRIC.has(jwk.alg) || !jwk.kid) {
      throw new Error(`${signingKeysPath}: each key needs a kid and an alg of ES256 or RS256`);
    }
    const alg = jwk.alg as AsymmetricAlg;
    const published = publicHalf(jwk);
    const key = await jose.importJWK(published, alg);
    if (!(key instanceof CryptoKey)) throw new Error(`${alg} public key did not import as a CryptoKey`);
    publicKeys.set(jwk.kid, { alg, key });
    publicJwks.push(published);
  }
  const signing = privateJwks[0];
  if (!signing?.kid) throw new Error(`${signingKeysPath}: no signing key`);
  const alg = signing.alg as AsymmetricAlg;
  const privateKey = await jose.importJWK({ ...signing, key_ops: ['sign'] }, alg);
  if (!(privateKey instanceof CryptoKey)) throw new Error(`${alg} signing key did not import as a CryptoKey`);
  const hmacSecret = new TextEncoder().encode(JWT_SECRET);
  return {
    privateKey,
    alg,
    kid: signing.kid,
    publicKeys,
    publicJwks,
    hmacSecret,
    postgrestJwks: {
      keys: [...publicJwks, { kty: 'oct', k: jose.base64url.encode(hmacSecret), alg: 'HS256' }],
    },
  };
}

/**
 * The public key an asymmetric token names: by its `kid`, or the only key when it names none.
 * Undefined for another algorithm or an unknown key.
 */
export function publicKeyFor(
  keys: SigningKeys,
  header: jose.ProtectedHeaderParameters,
): CryptoKey | undefined {
  const found =
    header.kid !== undefined
      ? keys.publicKeys.get(header.kid)
      : keys.publicKeys.size === 1
        ? [...keys.publicKeys.values()][0]
        : undefined;
  return found && found.alg === header.alg ? found.key : undefined;
}

export type VerifiedClaims = jose.JWTPayload & Record<string, unknown>;

/**
 * Verifies a JWT the way the Supabase services do: HS256 with the project secret (the API keys,
 * and tokens minted by other tools), ES256 or RS256 with a published key (user sessions).
 */
export async function verifyJwt(keys: SigningKeys, token: string): Promise<VerifiedClaims> {
  const header = jose.decodeProtectedHeader(token);
  if (header.alg === 'HS256') {
    const { payload } = await jose.jwtVerify(token, keys.hmacSecret, { algorithms: ['HS256'] });
    return payload;
  }
  if (header.alg && ASYMMETRIC.has(header.alg)) {
    const key = publicKeyFor(keys, header);
    if (!key) throw new jose.errors.JWSSignatureVerificationFailed('signing key not found');
    const { payload } = await jose.jwtVerify(token, key, { algorithms: [header.alg] });
    return payload;
  }
  throw new jose.errors.JOSEAlgNotAllowed(`unsupported signing algorithm ${String(header.alg)}`);
}
