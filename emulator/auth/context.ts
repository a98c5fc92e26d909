// What every auth handler receives: the parsed request and the service's dependencies (GoTrue's
// API struct and its request context, internal/api/api.go and context.go).
import type { IncomingHttpHeaders } from 'node:http';
import type pg from 'pg';
import type { AuthSettings } from '../config.ts';
import type { SigningKeys } from '../keys.ts';
import { inTransaction } from '../lib/transaction.ts';
import type { Mailer } from './mailer.ts';
import type { AuthLimiters } from './rate-limit.ts';
import type { GrantContext, TokenSettings } from './sessions.ts';

export interface AuthService {
  settings: AuthSettings;
  pool: pg.Pool;
  keys: SigningKeys;
  tokens: TokenSettings;
  mailer: Mailer;
  limiters: AuthLimiters;
  apiExternalUrl: string;
}

export interface AuthRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  ip: string;
  userAgent: string;
  bearer: string | undefined;
  body: Record<string, unknown>;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const json = (body: unknown, status = 200, headers?: Record<string, string>): Reply => ({
  status,
  body,
  headers,
});

export function grantContext(req: AuthRequest): GrantContext {
  return { ip: req.ip, userAgent: req.userAgent };
}

export function transaction<T>(service: AuthService, fn: (db: pg.PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(service.pool, fn);
}
