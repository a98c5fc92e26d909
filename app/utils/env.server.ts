// Every setting the app reads, read once and checked with zod. Nothing else in app/ touches
// process.env. Without SUPABASE_URL the app talks to the local backend (emulator/) with its
// well-known development keys (public knowledge, valid nowhere else), in development and in a
// local `npm start` alike. A production start against any other backend needs its address, its keys
// and a real cookie secret, and refuses to run without them, with one line naming the variable.
import { z } from 'zod';

// The local backend's address (API_PORT moves it, as it moves `npm run backend`) and the Supabase
// CLI's local development keys, which emulator/keys.ts serves.
const LOCAL_API_PORT = 54321;
const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';
const LOCAL_SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';

// Signs the app's own cookies (the one-time flash message, the device cookie) against the local
// backend only: it is in the source, so it proves nothing, and a production start against any other
// backend refuses to run without a real one.
const LOCAL_SESSION_SECRET = 'crewboard-local-development-session-secret';

const blankIsUnset = (value: unknown) => (value === '' ? undefined : value);

const urlWithScheme = (scheme: RegExp, example: string) =>
  z
    .string()
    .refine((v) => URL.canParse(v) && scheme.test(new URL(v).protocol), `must be a URL such as ${example}`);

const httpUrl = urlWithScheme(/^https?:$/, 'https://example.com');

const positiveInt = z.coerce.number().int('must be a whole number').positive('must be at least 1');

const port = z.coerce
  .number()
  .int('must be a port number')
  .min(1, 'must be a port number')
  .max(65535, 'must be a port number');

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;
const IPV6 = /^[0-9a-f:.]+$/i;

/** TRUST_PROXY: unset or `false` (use the socket), `true` (one proxy in front), or the proxies' addresses. */
const trustProxy = z.string().transform((value, ctx) => {
  const v = value.trim().toLowerCase();
  if (v === '' || v === 'false' || v === '0') return { kind: 'none' as const };
  if (v === 'true' || v === '1') return { kind: 'nearest' as const };
  const entries = v.split(',').map((s) => s.trim());
  for (const entry of entries) {
    const [address, bits] = entry.split('/');
    const ipOk = IPV4.test(address ?? '') || (address?.includes(':') && IPV6.test(address));
    const max = address?.includes(':') ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= max);
    if (!ipOk || !bitsOk) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is not an IP address or CIDR range (use true, false, or a comma-separated list)`,
      });
      return z.NEVER;
    }
  }
  return { kind: 'list' as const, proxies: entries };
});

export type TrustProxy = z.output<typeof trustProxy>;

const Schema = z.object({
  NODE_ENV: z.preprocess(blankIsUnset, z.enum(['development', 'production', 'test']).default('development')),
  SUPABASE_URL: z.preprocess(blankIsUnset, httpUrl.optional()),
  SUPABASE_ANON_KEY: z.preprocess(blankIsUnset, z.string().min(20, 'looks too short for a key').optional()),
  SUPABASE_SERVICE_ROLE_KEY: z.preprocess(
    blankIsUnset,
    z.string().min(20, 'looks too short for a key').optional(),
  ),
  SITE_URL: z.preprocess(blankIsUnset, httpUrl.optional()),
  /** The local backend's port, when SUPABASE_URL is unset (`npm run backend` reads it too). */
  API_PORT: z.preprocess(blankIsUnset, port.default(LOCAL_API_PORT)),
  /**
   * Secrets that sign the app's own cookies, comma-separated: the first signs, every one is accepted,
   * so a new secret can be put in front of the old one without breaking cookies already out there.
   */
  SESSION_SECRET: z.preprocess(
    blankIsUnset,
    z
      .string()
      .transform((value) => value.split(',').map((s) => s.trim()))
      .refine((secrets) => secrets.every((s) => s.length >= 32), 'needs at least 32 characters per secret')
      .optional(),
  ),
  TRUST_PROXY: z.preprocess(blankIsUnset, trustProxy.default({ kind: 'none' })),
  /** Sign-in attempts (password, code, MFA, password checks) per visitor address, per 5 minutes. */
  RATE_LIMIT_SIGN_IN_PER_VISITOR: z.preprocess(blankIsUnset, positiveInt.default(30)),
  /** The same attempts per target account, from any address, per 5 minutes. */
  RATE_LIMIT_SIGN_IN_PER_ACCOUNT: z.preprocess(blankIsUnset, positiveInt.default(10)),
});

/** Variables a production start must be given unless it talks to the local backend. */
const REQUIRED_IN_PRODUCTION = [
  'SUPABASE_URL',
  'SUPABASE_ANON_KEY',
  'SUPABASE_SERVICE_ROLE_KEY',
  'SESSION_SECRET',
] as const;

export interface AppConfig {
  mode: 'development' | 'production' | 'test';
  /**
   * The app talks to the local backend with its well-known keys (see isLocalBackend): whatever of
   * the keys and the cookie secret is not set is filled in with the local development values.
   */
  localBackend: boolean;
  supabaseUrl: string;
  supabaseAnonKey: string;
  serviceRoleKey: string | undefined;
  siteUrl: string | undefined;
  /** The first signs cookies; all are accepted when reading them. Never empty. */
  sessionSecrets: string[];
  trustProxy: TrustProxy;
  signInLimits: { perVisitor: number; perAccount: number };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A backend on this machine: localhost, 127.0.0.0/8 or ::1. */
function onThisMachine(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Whether the settings name the local development backend: no backend setting at all, or only the
 * local one's (an address on this machine, its well-known keys). Anything else — a hosted project,
 * a self-hosted one, or one key of a real project without its address — is a real backend, and a
 * production start must then be given every one of REQUIRED_IN_PRODUCTION.
 */
function isLocalBackend(
  url: string,
  anonKey: string | undefined,
  serviceRoleKey: string | undefined,
): boolean {
  return (
    onThisMachine(url) &&
    (anonKey ?? LOCAL_ANON_KEY) === LOCAL_ANON_KEY &&
    (serviceRoleKey ?? LOCAL_SERVICE_ROLE_KEY) === LOCAL_SERVICE_ROLE_KEY
  );
}

/** Reads and checks the settings; throws a ConfigError whose message is one line naming the variable. */
export function readConfig(env: Record<string, string | undefined>): AppConfig {
  const parsed = Schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'a setting');
    throw new ConfigError(`${name} ${issue?.message ?? 'is not valid'} (got ${JSON.stringify(env[name])}).`);
  }
  const v = parsed.data;
  const supabaseUrl = (v.SUPABASE_URL ?? `http://127.0.0.1:${v.API_PORT}`).replace(/\/+$/, '');
  const localBackend = isLocalBackend(supabaseUrl, v.SUPABASE_ANON_KEY, v.SUPABASE_SERVICE_ROLE_KEY);
  if (v.NODE_ENV === 'production' && !localBackend) {
    const missing = REQUIRED_IN_PRODUCTION.filter((name) => v[name] === undefined);
    if (missing.length > 0) {
      throw new ConfigError(
        `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set; a production start needs the backend's address and keys, and a secret to sign cookies (see .env.example).`,
      );
    }
  }
  return {
    mode: v.NODE_ENV,
    localBackend,
    supabaseUrl,
    supabaseAnonKey: v.SUPABASE_ANON_KEY ?? LOCAL_ANON_KEY,
    serviceRoleKey: v.SUPABASE_SERVICE_ROLE_KEY ?? (localBackend ? LOCAL_SERVICE_ROLE_KEY : undefined),
    siteUrl: v.SITE_URL?.replace(/\/+$/, ''),
    sessionSecrets: v.SESSION_SECRET ?? [LOCAL_SESSION_SECRET],
    trustProxy: v.TRUST_PROXY,
    signInLimits: {
      perVisitor: v.RATE_LIMIT_SIGN_IN_PER_VISITOR,
      perAccount: v.RATE_LIMIT_SIGN_IN_PER_ACCOUNT,
    },
  };
}

let current: AppConfig | null = null;

/** The app's settings, read from the environment on first use. */
export function config(): AppConfig {
  current ??= readConfig(process.env);
  return current;
}

/** Tests that change the environment read it again. */
export function reloadConfig(): AppConfig {
  current = null;
  return config();
}

/**
 * Called once when the server build loads: a production server with missing or malformed settings
 * stops here with one line, instead of talking to a development backend it cannot reach; a local
 * `npm start` (no backend settings) says in one line which backend and keys it uses.
 */
export function checkConfigAtStart(): void {
  let settings: AppConfig;
  try {
    settings = config();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    if (process.env.NODE_ENV === 'production') {
      console.error(`✖ Crewboard cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  if (settings.mode === 'production' && settings.localBackend) {
    console.log(
      `Crewboard uses the local backend at ${settings.supabaseUrl} with its well-known development keys; a production deploy sets SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY and SESSION_SECRET (see .env.example).`,
    );
  }
}

export function supabaseEnv(): { url: string; anonKey: string } {
  const { supabaseUrl, supabaseAnonKey } = config();
  return { url: supabaseUrl, anonKey: supabaseAnonKey };
}
