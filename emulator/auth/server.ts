// The GoTrue-compatible auth API, mounted by the gateway at /auth/v1.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import type { AuthSettings } from '../config.ts';
import type { SigningKeys } from '../keys.ts';
import { BodyTooLarge, MalformedBody, bearerToken, clientIp, header, readJsonObject } from '../lib/http.ts';
import type { OutgoingMail } from '../lib/mail.ts';
import { getUser, logout, reauthenticate, updateUser } from './account.ts';
import {
  createUserAsAdmin,
  deleteFactorAsAdmin,
  deleteUserAsAdmin,
  generateLink,
  getUserAsAdmin,
  invite,
  listFactorsAsAdmin,
  listUsers,
  requireAdmin,
  updateUserAsAdmin,
} from './admin.ts';
import type { AuthRequest, AuthService, Reply } from './context.ts';
import { json } from './context.ts';
import {
  AuthError,
  OAuthError,
  badRequest,
  errorReply,
  isInvalidInput,
  requestedApiVersion,
} from './errors.ts';
import { otp } from './otp.ts';
import { recover } from './recover.ts';
import { resend } from './resend.ts';
import { signup } from './signup.ts';
import { token } from './token.ts';
import { verifyGet, verifyPost } from './verify.ts';
import { Mailer } from './mailer.ts';
import { challengeFactor, enrollFactor, unenrollFactor, verifyFactor } from './mfa.ts';
import { createLimiters } from './rate-limit.ts';

const BODY_LIMIT = 256 * 1024;
const VERSION = 'v2.177.0-crewboard-emulator';

export interface AuthOptions {
  settings: AuthSettings;
  pool: pg.Pool;
  keys: SigningKeys;
  apiExternalUrl: string;
  deliverMail: (mail: OutgoingMail) => void;
  log?: (line: string) => void;
}

type Handler = (service: AuthService, req: AuthRequest, ...params: string[]) => Promise<Reply>;

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
  admin?: boolean;
}

const UUIDISH = '([^/]+)';

/**
 * GoTrue's health answer, with one difference: GoTrue answers 200 without looking at its database;
 * here a database that does not answer `select 1` within a second makes it 503, so a readiness check
 * through /auth/v1/health sees that auth cannot work. The body is GoTrue's either way.
 */
async function health(service: AuthService): Promise<Reply> {
  const body = {
    version: VERSION,
    name: 'GoTrue',
    description: 'GoTrue is a user registration and authentication API',
  };
  return (await databaseAnswers(service.pool)) ? json(body) : json(body, 503);
}

async function databaseAnswers(pool: pg.Pool): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), 1000);
  });
  const probe = pool.query('select 1').then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const ROUTES: Route[] = [
  {
    method: 'GET',
    pattern: /^\/health$/,
    handler: health,
  },
  { method: 'GET', pattern: /^\/settings$/, handler: async (s) => json(settingsBody(s.settings)) },
  {
    method: 'GET',
    pattern: /^\/\.well-known\/jwks\.json$/,
    handler: async (s) => json({ keys: s.keys.publicJwks }, 200, { 'Cache-Control': 'public, max-age=600' }),
  },
  { method: 'POST', pattern: /^\/signup$/, handler: signup },
  { method: 'POST', pattern: /^\/token$/, handler: token },
  { method: 'POST', pattern: /^\/otp$/, handler: otp },
  { method: 'POST', pattern: /^\/magiclink$/, handler: otp },
  { method: 'GET', pattern: /^\/verify$/, handler: verifyGet },
  { method: 'POST', pattern: /^\/verify$/, handler: verifyPost },
  { method: 'POST', pattern: /^\/resend$/, handler: resend },
  { method: 'POST', pattern: /^\/recover$/, handler: recover },
  { method: 'GET', pattern: /^\/user$/, handler: getUser },
  { method: 'PUT', pattern: /^\/user$/, handler: updateUser },
  { method: 'POST', pattern: /^\/logout$/, handler: logout },
  { method: 'GET', pattern: /^\/reauthenticate$/, handler: reauthenticate },
  { method: 'POST', pattern: /^\/factors$/, handler: enrollFactor },
  { method: 'POST', pattern: new RegExp(`^/factors/${UUIDISH}/challenge$`), handler: challengeFactor },
  { method: 'POST', pattern: new RegExp(`^/factors/${UUIDISH}/verify$`), handler: verifyFactor },
  { method: 'DELETE', pattern: new RegExp(`^/factors/${UUIDISH}$`), handler: unenrollFactor },
  {
    method: 'GET',
    pattern: /^\/authorize$/,
    handler: async () => {
      throw badRequest('validation_failed', 'Unsupported provider: provider is not enabled');
    },
  },
  { method: 'GET', pattern: /^\/admin\/users$/, handler: listUsers, admin: true },
  { method: 'POST', pattern: /^\/admin\/users$/, handler: createUserAsAdmin, admin: true },
  { method: 'GET', pattern: new RegExp(`^/admin/users/${UUIDISH}$`), handler: getUserAsAdmin, admin: true },
  {
    method: 'PUT',
    pattern: new RegExp(`^/admin/users/${UUIDISH}$`),
    handler: updateUserAsAdmin,
    admin: true,
  },
  {
    method: 'DELETE',
    pattern: new RegExp(`^/admin/users/${UUIDISH}$`),
    handler: deleteUserAsAdmin,
    admin: true,
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/admin/users/${UUIDISH}/factors$`),
    handler: listFactorsAsAdmin,
    admin: true,
  },
  {
    method: 'DELETE',
    pattern: new RegExp(`^/admin/users/${UUIDISH}/factors/${UUIDISH}$`),
    handler: deleteFactorAsAdmin,
    admin: true,
  },
  { method: 'POST', pattern: /^\/admin\/generate_link$/, handler: generateLink, admin: true },
  { method: 'POST', pattern: /^\/invite$/, handler: invite, admin: true },
];

function settingsBody(settings: AuthSettings): Record<string, unknown> {
  return {
    external: {
      anonymous_users: settings.enableAnonymousSignIns,
      apple: false,
      azure: false,
      bitbucket: false,
      discord: false,
      facebook: false,
      figma: false,
      fly: false,
      github: false,
      gitlab: false,
      google: false,
      keycloak: false,
      kakao: false,
      linkedin: false,
      linkedin_oidc: false,
      notion: false,
      spotify: false,
      slack: false,
      slack_oidc: false,
      workos: false,
      twitch: false,
      twitter: false,
      x: false,
      zoom: false,
      email: true,
      phone: false,
    },
    disable_signup: !settings.enableSignup,
    mailer_autoconfirm: !settings.email.enableConfirmations,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  };
}

export function createAuthService(options: AuthOptions): AuthService {
  const { settings } = options;
  return {
    settings,
    pool: options.pool,
    keys: options.keys,
    apiExternalUrl: options.apiExternalUrl,
    tokens: {
      keys: options.keys,
      issuer: `${options.apiExternalUrl}/auth/v1`,
      jwtExpiry: settings.jwtExpiry,
      reuseInterval: settings.refreshTokenReuseInterval,
      rotationEnabled: settings.enableRefreshTokenRotation,
    },
    mailer: new Mailer(settings, options.apiExternalUrl, options.deliverMail),
    limiters: createLimiters({ ...settings.rateLimit, mfa: settings.mfa.rateLimit }),
  };
}

/** Handles one request whose path is relative to /auth/v1. */
export function createAuthHandler(service: AuthService, log: (line: string) => void = () => undefined) {
  return async (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
  ): Promise<void> => {
    const apiVersion = requestedApiVersion(header(req, 'x-supabase-api-version'));
    let reply: Reply;
    try {
      reply = await dispatch(service, req, path, query);
    } catch (error) {
      if (!(error instanceof AuthError) && !(error instanceof OAuthError) && !isInvalidInput(error)) {
        log(
          `auth: ${req.method} ${path} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      }
      const e = errorReply(error, apiVersion);
      reply = { status: e.status, body: e.body, headers: e.headers };
    }
    const headers: Record<string, string> = { ...(reply.headers ?? {}) };
    if (apiVersion) headers['X-Supabase-Api-Version'] = apiVersion;
    if (reply.body === undefined) {
      res.writeHead(reply.status, headers);
      res.end();
      return;
    }
    const payload = JSON.stringify(reply.body);
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(payload));
    res.writeHead(reply.status, headers);
    res.end(payload);
  };
}

/** A segment that is not valid percent-encoded UTF-8 stays as sent: it then fails as a malformed id. */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([key, inner]) => key.includes('\u0000') || containsNul(inner));
  }
  return false;
}

/**
 * PostgreSQL text and jsonb cannot hold U+0000, so a NUL anywhere in a request would reach the
 * database only to fail there. It is refused up front as invalid input (400), as GoTrue refuses a
 * value its validation does not accept; GoTrue itself passes such a value on (a password with a NUL
 * is hashed in Go, a token with one fails in the database with a 500).
 */
function rejectNulCharacters(query: URLSearchParams, body: Record<string, unknown>): void {
  for (const [key, value] of query) {
    if (containsNul(key) || containsNul(value)) throw nulCharacter(key);
  }
  for (const [key, value] of Object.entries(body)) {
    if (containsNul(key) || containsNul(value)) throw nulCharacter(key);
  }
}

const nulCharacter = (key: string) =>
  badRequest('validation_failed', `Invalid ${key.replaceAll('\u0000', '')}: contains a NUL character`);

async function dispatch(
  service: AuthService,
  req: IncomingMessage,
  path: string,
  query: URLSearchParams,
): Promise<Reply> {
  const method = req.method ?? 'GET';
  let matchedPath = false;
  for (const route of ROUTES) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    matchedPath = true;
    if (route.method !== method) continue;
    let body: Record<string, unknown> = {};
    if (method !== 'GET' && method !== 'HEAD') {
      try {
        body = await readJsonObject(req, BODY_LIMIT);
      } catch (error) {
        if (error instanceof BodyTooLarge) {
          throw new AuthError(413, 'request_entity_too_large', 'Request body too large');
        }
        if (error instanceof MalformedBody)
          throw badRequest('bad_json', `Could not parse request body as JSON: ${error.message}`);
        throw error;
      }
    }
    rejectNulCharacters(query, body);
    const authRequest: AuthRequest = {
      method,
      path,
      query,
      headers: req.headers,
      ip: clientIp(req),
      userAgent: header(req, 'user-agent') ?? '',
      bearer: bearerToken(req),
      body,
    };
    if (route.admin) await requireAdmin(service, authRequest);
    return route.handler(service, authRequest, ...match.slice(1).map(decodePathSegment));
  }
  if (matchedPath) throw new AuthError(405, 'method_not_allowed', 'Method not allowed');
  throw new AuthError(404, 'not_found', 'Not found');
}
