// Every setting the app reads, read once and checked with zod. Nothing else in app/ touches
// process.env. Without SUPABASE_URL in development the app talks to the local backend with its
// well-known development keys (public knowledge, valid nowhere else); a production start refuses
// to run on those defaults, with one line naming the variable to set.
import { z } from 'zod';

const LOCAL_URL = 'http://127.0.0.1:54321';
const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';

// Signs the app's own cookies (the one-time flash message) in development and tests only: it is in the
// source, so it proves nothing, and a production start refuses to run without a real one.
const LOCAL_SESSION_SECRET = 'crewboard-local-development-session-secret';

const blankIsUnset = (value: unknown) => (value === '' ? undefined : value);

const urlWithScheme = (scheme: RegExp, example: string) =>
  z
    .string()
    .refine((v) => URL.canParse(v) && scheme.test(new URL(v).protocol), `must be a URL such as ${example}`);

const httpUrl = urlWithScheme(/^https?:$/, 'https://example.com');

const positiveInt = z.coerce.number().int('must be a whole number').positive('must be at least 1');

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

/** Variables a production start must be given: the defaults point at a local development backend. */
const REQUIRED_IN_PRODUCTION = [
  'SUPABASE_URL',
  'SUPABASE_ANON_KEY',
  'SUPABASE_SERVICE_ROLE_KEY',
  'SESSION_SECRET',
] as const;

export interface AppConfig {
  mode: 'development' | 'production' | 'test';
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

/** Reads and checks the settings; throws a ConfigError whose message is one line naming the variable. */
export function readConfig(env: Record<string, string | undefined>): AppConfig {
  const parsed = Schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'a setting');
    throw new ConfigError(`${name} ${issue?.message ?? 'is not valid'} (got ${JSON.stringify(env[name])}).`);
  }
  const v = parsed.data;
  if (v.NODE_ENV === 'production') {
    const missing = REQUIRED_IN_PRODUCTION.filter((name) => v[name] === undefined);
    if (missing.length > 0) {
      throw new ConfigError(
        `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set; a production start needs the backend's address and keys, and a secret to sign cookies (see .env.example).`,
      );
    }
  }
  return {
    mode: v.NODE_ENV,
    supabaseUrl: (v.SUPABASE_URL ?? LOCAL_URL).replace(/\/+$/, ''),
    supabaseAnonKey: v.SUPABASE_ANON_KEY ?? LOCAL_ANON_KEY,
    serviceRoleKey: v.SUPABASE_SERVICE_ROLE_KEY,
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
 * stops here with one line, instead of talking to a development backend it cannot reach.
 */
export function checkConfigAtStart(): void {
  try {
    config();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    if (process.env.NODE_ENV === 'production') {
      console.error(`✖ Crewboard cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

export function supabaseEnv(): { url: string; anonKey: string } {
  const { supabaseUrl, supabaseAnonKey } = config();
  return { url: supabaseUrl, anonKey: supabaseAnonKey };
}
