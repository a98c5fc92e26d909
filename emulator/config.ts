// Settings for the local backend, read from supabase/config.toml with the Supabase CLI's own
// keys so that the same file configures a hosted project (`supabase config push`).
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import type { Address } from './lib/mail.ts';
import { parseAddresses } from './mail/mime.ts';

export interface EmailTemplate {
  subject: string;
  contentPath: string | null;
}

export type TemplateName =
  'confirmation' | 'invite' | 'magic_link' | 'recovery' | 'email_change' | 'reauthentication';

export interface AuthSettings {
  siteUrl: string;
  additionalRedirectUrls: string[];
  jwtExpiry: number;
  enableSignup: boolean;
  /** `[auth] enable_anonymous_sign_ins`: POST /signup without an email or phone makes an anonymous user. */
  enableAnonymousSignIns: boolean;
  enableRefreshTokenRotation: boolean;
  refreshTokenReuseInterval: number;
  minimumPasswordLength: number;
  /** `[auth] signing_keys_path`, resolved: private JWKs that sign (the first) and verify user tokens. */
  signingKeysPath: string | null;
  email: {
    enableSignup: boolean;
    enableConfirmations: boolean;
    doubleConfirmChanges: boolean;
    securePasswordChange: boolean;
    maxFrequency: number;
    /** Who auth's emails come from: MAIL_FROM, as GoTrue's SMTP_SENDER_NAME and SMTP_ADMIN_EMAIL. */
    from: Address;
    otpLength: number;
    otpExpiry: number;
    templates: Partial<Record<TemplateName, EmailTemplate>>;
  };
  rateLimit: {
    emailSent: number;
    tokenRefresh: number;
    signInSignUps: number;
    tokenVerifications: number;
    anonymousUsers: number;
    /**
     * The request header whose first value a client is limited by (GoTrue's GOTRUE_RATE_LIMIT_HEADER).
     * Empty, as in the CLI's stack: no per-address request limit at all.
     */
    header: string;
  };
  mfa: {
    maxEnrolledFactors: number;
    totpEnrollEnabled: boolean;
    totpVerifyEnabled: boolean;
    /** Seconds a challenge can be verified in (GoTrue's MFA_CHALLENGE_EXPIRY_DURATION; the CLI does not expose it). */
    challengeExpiry: number;
    /** Challenge and verify requests per IP per minute (GoTrue's MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY). */
    rateLimit: number;
  };
}

export interface Settings {
  projectRoot: string;
  apiPort: number;
  dbPort: number;
  mailPort: number;
  /** SMTP into the mailbox, `[local_smtp] smtp_port` (the app sends its own emails there). */
  smtpPort: number;
  schemas: string[];
  extraSearchPath: string[];
  maxRows: number;
  /**
   * MAIL_FROM, `Name <address>`: the one sender of every email, auth's and the Edge Functions' (which
   * get it as their MAIL_FROM).
   */
  mailFrom: string;
  auth: AuthSettings;
}

/** The sender when MAIL_FROM is unset. `.test` is reserved (RFC 2606): no real domain is named. */
export const DEFAULT_MAIL_FROM = 'Crewboard <no-reply@crewboard.test>';

/** MAIL_FROM read as one address; anything else stops the backend with the variable named. */
export function parseMailFrom(value: string): Address {
  const addresses = parseAddresses(value);
  const [only] = addresses;
  if (addresses.length !== 1 || !only || !/^[^\s@<>]+@[^\s@<>]+$/.test(only.Address)) {
    throw new Error(`MAIL_FROM is "${value}", which is not one email address (Name <address@example.com>).`);
  }
  return only;
}

type Table = Record<string, unknown>;

function table(value: unknown): Table {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Table) : {};
}
function num(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
function bool(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}
function str(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}
function strings(value: unknown, fallback: string[]): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : fallback;
}

/** Go-style durations as the CLI writes them ("60s", "1m0s", "1h") or plain seconds. */
export function parseDuration(value: unknown, fallbackSeconds: number): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value.trim() === '') return fallbackSeconds;
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  let total = 0;
  let matched = '';
  for (const m of value.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
    total += Number(m[1]) * (units[m[2] ?? 's'] ?? 0);
    matched += m[0];
  }
  if (matched !== value.trim()) throw new Error(`config.toml: cannot read the duration "${value}"`);
  return total;
}

const TEMPLATE_NAMES: TemplateName[] = [
  'confirmation',
  'invite',
  'magic_link',
  'recovery',
  'email_change',
  'reauthentication',
];

export type Environment = Record<string, string | undefined>;

export function loadSettings(projectRoot: string, env: Environment = process.env): Settings {
  const file = path.join(projectRoot, 'supabase', 'config.toml');
  const doc: Table = existsSync(file) ? table(parse(readFileSync(file, 'utf8'))) : {};
  const api = table(doc.api);
  const db = table(doc.db);
  // [local_smtp] in CLI 3.x; [inbucket] in older config files.
  const mailbox = table(doc.local_smtp ?? doc.inbucket);
  const auth = table(doc.auth);
  const email = table(auth.email);
  const templates = table(email.template);
  const rate = table(auth.rate_limit);
  const mfa = table(auth.mfa);
  const totp = table(mfa.totp);

  const tpl: Partial<Record<TemplateName, EmailTemplate>> = {};
  for (const name of TEMPLATE_NAMES) {
    const t = table(templates[name]);
    if (Object.keys(t).length === 0) continue;
    const contentPath = typeof t.content_path === 'string' ? path.resolve(projectRoot, t.content_path) : null;
    tpl[name] = { subject: str(t.subject, ''), contentPath };
  }

  const envInt = (name: string): number | undefined => {
    const v = env[name];
    return v && /^\d+$/.test(v) ? Number(v) : undefined;
  };

  const mailFrom = env.MAIL_FROM?.trim() || DEFAULT_MAIL_FROM;

  return {
    projectRoot,
    apiPort: num(api.port, 54321),
    dbPort: num(db.port, 54322),
    mailPort: num(mailbox.port, 54324),
    smtpPort: num(mailbox.smtp_port, 54325),
    schemas: strings(api.schemas, ['public', 'graphql_public']),
    extraSearchPath: strings(api.extra_search_path, ['public', 'extensions']),
    maxRows: num(api.max_rows, 1000),
    mailFrom,
    auth: {
      siteUrl: env.AUTH_SITE_URL || str(auth.site_url, 'http://127.0.0.1:3000'),
      additionalRedirectUrls: strings(auth.additional_redirect_urls, []),
      jwtExpiry: envInt('AUTH_JWT_EXPIRY') ?? num(auth.jwt_expiry, 3600),
      enableSignup: bool(auth.enable_signup, true),
      enableAnonymousSignIns:
        env.AUTH_ENABLE_ANONYMOUS_SIGN_INS !== undefined
          ? env.AUTH_ENABLE_ANONYMOUS_SIGN_INS === 'true'
          : bool(auth.enable_anonymous_sign_ins, false),
      enableRefreshTokenRotation: bool(auth.enable_refresh_token_rotation, true),
      refreshTokenReuseInterval: num(auth.refresh_token_reuse_interval, 10),
      minimumPasswordLength: num(auth.minimum_password_length, 6),
      // Relative to supabase/, as the CLI resolves it.
      signingKeysPath:
        typeof auth.signing_keys_path === 'string' && auth.signing_keys_path !== ''
          ? path.resolve(projectRoot, 'supabase', auth.signing_keys_path)
          : null,
      email: {
        // `enabled` in CLI 3.x; `enable_signup` before.
        enableSignup: bool(email.enabled ?? email.enable_signup, true),
        enableConfirmations: bool(email.enable_confirmations, false),
        doubleConfirmChanges: bool(email.double_confirm_changes, true),
        securePasswordChange: bool(email.secure_password_change, false),
        maxFrequency: parseDuration(email.max_frequency, 60),
        from: parseMailFrom(mailFrom),
        otpLength: num(email.otp_length, 6),
        otpExpiry: num(email.otp_expiry, 3600),
        templates: tpl,
      },
      rateLimit: {
        emailSent: envInt('AUTH_RATE_LIMIT_EMAIL_SENT') ?? num(rate.email_sent, 2),
        tokenRefresh: envInt('AUTH_RATE_LIMIT_TOKEN_REFRESH') ?? num(rate.token_refresh, 150),
        signInSignUps: envInt('AUTH_RATE_LIMIT_SIGN_IN') ?? num(rate.sign_in_sign_ups, 30),
        tokenVerifications: envInt('AUTH_RATE_LIMIT_VERIFY') ?? num(rate.token_verifications, 30),
        anonymousUsers: envInt('AUTH_RATE_LIMIT_ANONYMOUS_USERS') ?? num(rate.anonymous_users, 30),
        header: env.AUTH_RATE_LIMIT_HEADER?.trim() ?? '',
      },
      // The CLI's template defaults: TOTP is off unless [auth.mfa.totp] turns it on.
      mfa: {
        maxEnrolledFactors: num(mfa.max_enrolled_factors, 10),
        totpEnrollEnabled: bool(totp.enroll_enabled, false),
        totpVerifyEnabled: bool(totp.verify_enabled, false),
        challengeExpiry: 300,
        rateLimit: envInt('AUTH_RATE_LIMIT_MFA') ?? 15,
      },
    },
  };
}
