// What every storage handler receives: the request, its requester, and the service's parts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SigningKeys } from '../keys.ts';
import { MalformedBody, readJsonObject } from '../lib/http.ts';
import type { Scope, StorageDb } from './db.ts';
import { errors } from './errors.ts';
import type { ObjectFiles } from './files.ts';
import type { Requester } from './requester.ts';

export interface StorageService {
  db: StorageDb;
  files: ObjectFiles;
  keys: SigningKeys;
  /** The project-wide upload limit in bytes (the CLI's `[storage] file_size_limit`, 50 MiB). */
  fileSizeLimit: number;
  /** How long a signed upload URL stays valid, in seconds (hosted: two hours). */
  signedUploadExpiresIn: number;
}

export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  query: URLSearchParams;
  bucket: string;
  name: string;
  requester: Requester;
  /** Aborted when the client goes away before we answered. */
  signal: AbortSignal;
  /** The transaction scope of this request for a storage-api operation name. */
  scope(operation: string): Scope;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown, headers?: Record<string, string>): Reply => ({
  status: 200,
  body,
  headers,
});

const JSON_LIMIT = 10 * 1024 * 1024;

export async function jsonBody(call: Call): Promise<Record<string, unknown>> {
  try {
    return await readJsonObject(call.req, JSON_LIMIT);
  } catch (error) {
    if (error instanceof MalformedBody) throw errors.validation(error.message);
    throw error;
  }
}

// Small validators that answer like storage-api's JSON-schema validation ("body/x must be string").

export function requiredString(body: Record<string, unknown>, key: string, where = 'body'): string {
  const value = body[key];
  if (value === undefined || value === null) {
    throw errors.validation(`${where} must have required property '${key}'`);
  }
  if (typeof value !== 'string') throw errors.validation(`${where}/${key} must be string`);
  return value;
}

export function optionalString(
  body: Record<string, unknown>,
  key: string,
  where = 'body',
): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw errors.validation(`${where}/${key} must be string`);
  return value;
}

export function optionalBoolean(body: Record<string, unknown>, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw errors.validation(`body/${key} must be boolean`);
  return value;
}

export function optionalInteger(
  body: Record<string, unknown>,
  key: string,
  minimum: number,
  where = 'body',
): number | undefined {
  const raw = body[key];
  if (raw === undefined || raw === null) return undefined;
  const value = typeof raw === 'string' && /^-?\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw errors.validation(`${where}/${key} must be integer`);
  }
  if (value < minimum) throw errors.validation(`${where}/${key} must be >= ${minimum}`);
  return value;
}
