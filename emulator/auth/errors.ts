// GoTrue's error shapes. With `X-Supabase-Api-Version: 2024-01-01` on the request the body is
// {code, message}; without it, the legacy {code: <status>, error_code, msg}. OAuth-style errors
// ({error, error_description}) are always HTTP 400. (supabase/auth internal/api/errors.go)
import pg from 'pg';
import type { ErrorCode } from './error-codes.ts';

export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export const badRequest = (code: ErrorCode, message: string) => new AuthError(400, code, message);
export const unprocessable = (code: ErrorCode, message: string) => new AuthError(422, code, message);
export const forbidden = (code: ErrorCode, message: string) => new AuthError(403, code, message);
export const notFound = (code: ErrorCode, message: string) => new AuthError(404, code, message);
export const tooManyRequests = (code: ErrorCode, message: string) => new AuthError(429, code, message);

export const weakPassword = (message: string, reasons: string[]) =>
  new AuthError(422, 'weak_password', message, { weak_password: { reasons } });

export const invalidCredentials = () => badRequest('invalid_credentials', 'Invalid login credentials');
export const otpExpired = (message = 'Token has expired or is invalid') => forbidden('otp_expired', message);
export const linkExpired = () => otpExpired('Email link is invalid or has expired');

const API_VERSION_2024 = '2024-01-01';

/** The API version the request asked for, if it is one that changes the error format. */
export function requestedApiVersion(headerValue: string | undefined): string | null {
  if (!headerValue || !/^\d{4}-\d{2}-\d{2}$/.test(headerValue)) return null;
  return headerValue >= API_VERSION_2024 ? API_VERSION_2024 : null;
}

export interface ErrorReply {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export function errorReply(error: unknown, apiVersion: string | null): ErrorReply {
  const headers: Record<string, string> = {};
  if (apiVersion) headers['X-Supabase-Api-Version'] = apiVersion;
  if (error instanceof OAuthError) {
    return { status: 400, headers, body: { error: error.error, error_description: error.description } };
  }
  const e =
    error instanceof AuthError
      ? error
      : isInvalidInput(error)
        ? badRequest('validation_failed', 'Invalid input: a value cannot be stored')
        : new AuthError(
            500,
            'unexpected_failure',
            'Unexpected failure, please check server logs for more information',
          );
  headers['x-sb-error-code'] = e.code;
  const body = apiVersion
    ? { code: e.code, message: e.message, ...e.extra }
    : { code: e.status, error_code: e.code, msg: e.message, ...e.extra };
  return { status: e.status, headers, body };
}

/**
 * The database's refusals of a value itself (a character it cannot store, a number out of range):
 * the request was invalid, so they are a 400, never a 500. Values are checked before they reach a
 * query; this catches what a check missed.
 */
export function isInvalidInput(error: unknown): boolean {
  return error instanceof pg.DatabaseError && ['22021', '22P05', '22003'].includes(error.code ?? '');
}
