// Errors as storage-api renders them (supabase/storage src/internal/errors/codes.ts, storage-error.ts,
// src/http/error-handler.ts): the body carries the logical status as a string, and the HTTP status is
// 400 for everything that is not a 500 — a missing object is HTTP 400 with `statusCode: "404"`.
// storage-js reads `code` (e.g. `exists()` keys off `NoSuchKey`), so codes and messages matter.
import pg from 'pg';
import type { ErrorCode } from './codes.ts';

export interface StorageErrorBody {
  statusCode: string;
  code: ErrorCode;
  error: string;
  message: string;
}

export class StorageError extends Error {
  /** Close the connection after answering: the client may still be sending a body we will not read. */
  closeConnection = false;

  constructor(
    readonly code: ErrorCode,
    /** The logical status, sent as a string in the body. */
    readonly statusCode: number,
    message: string,
    /** The legacy `error` field; storage-api falls back to the code. */
    readonly legacyError?: string,
    /** What goes on the wire: 400 unless the logical status is 500 or a route overrides it. */
    readonly httpStatus: number = statusCode === 500 ? 500 : 400,
  ) {
    super(message);
  }

  body(): StorageErrorBody {
    return {
      statusCode: String(this.statusCode),
      code: this.code,
      error: this.legacyError ?? this.code,
      message: this.message,
    };
  }
}

export const errors = {
  noSuchBucket: () => new StorageError('NoSuchBucket', 404, 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageError('NoSuchKey', 404, 'Object not found', 'not_found'),
  accessDenied: (message = 'Access denied') => new StorageError('AccessDenied', 403, message, 'Unauthorized'),
  /** Role enforcement is the one place storage-api sends a real HTTP 403. */
  accessDeniedStrict: (message: string) =>
    new StorageError('AccessDenied', 403, message, 'Unauthorized', 403),
  resourceAlreadyExists: () =>
    new StorageError('ResourceAlreadyExists', 409, 'The resource already exists', 'Duplicate'),
  bucketAlreadyExists: () =>
    new StorageError('BucketAlreadyExists', 409, 'The resource already exists', 'Duplicate'),
  bucketNotEmpty: () =>
    new StorageError('ResourceNotEmpty', 409, 'The bucket you tried to delete is not empty'),
  invalidBucketName: () => new StorageError('InvalidBucketName', 400, 'Bucket name invalid', 'Invalid Input'),
  invalidKey: (key: string) => new StorageError('InvalidKey', 400, `Invalid key: ${key}`),
  invalidJwt: (message = 'Invalid JWT') => new StorageError('InvalidJWT', 400, message),
  invalidSignature: (message = 'Invalid signature') => new StorageError('InvalidSignature', 400, message),
  expiredSignature: () => new StorageError('ExpiredToken', 400, 'The provided token has expired.'),
  entityTooLarge: (entity = 'object') =>
    new StorageError(
      'EntityTooLarge',
      413,
      `The ${entity} exceeded the maximum allowed size`,
      'Payload too large',
    ),
  invalidMimeType: (mimeType: string) =>
    new StorageError('InvalidMimeType', 415, `mime type ${mimeType} is not supported`, 'invalid_mime_type'),
  invalidFileSizeLimit: () =>
    new StorageError('InvalidRequest', 400, 'Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B'),
  invalidRange: () => new StorageError('InvalidRange', 416, 'invalid range provided', 'invalid_range', 416),
  invalidRequest: (message = 'Invalid Request') => new StorageError('InvalidRequest', 400, message),
  invalidParameter: (name: string, message?: string) =>
    new StorageError('InvalidParameter', 400, message ?? `Invalid Parameter ${name}`),
  noContentProvided: (message = 'No content provided') => new StorageError('InvalidRequest', 400, message),
  /** A body that does not match the route's JSON schema (fastify's validation error). */
  validation: (message: string) => new StorageError('InvalidRequest', 400, message, 'Bad Request'),
  internal: (message = 'Internal server error') => new StorageError('InternalError', 500, message),
};

/** The not-found handler of storage-api's REST routes: a real 404. */
export function routeNotFound(method: string, url: string): { status: number; body: StorageErrorBody } {
  return {
    status: 404,
    body: {
      statusCode: '404',
      code: 'InvalidRequest',
      error: 'Not Found',
      message: `Route ${method}:${url} not found`,
    },
  };
}

/** Maps a PostgreSQL error the way storage-api's DBError.fromDBError does. */
export function fromDatabaseError(error: pg.DatabaseError): StorageError {
  switch (error.code) {
    case '42501':
      return errors.accessDenied(
        error.message.includes('row-level security')
          ? 'new row violates row-level security policy'
          : error.message,
      );
    case '23505':
      return errors.resourceAlreadyExists();
    case '23503':
      return error.detail?.includes('is still referenced from table')
        ? new StorageError(
            'ResourceReferenced',
            409,
            'The resource could not be updated or removed due to a foreign key constraint',
          )
        : new StorageError('InvalidRequest', 404, 'The related resource does not exist');
    case '57014':
      return new StorageError(
        'DatabaseTimeout',
        544,
        'The connection to the database timed out',
        undefined,
        544,
      );
    case '22P02':
      return errors.invalidParameter('value', error.message);
    // A value the database cannot hold (a NUL character, a number out of range) is the client's
    // fault: storage-api's DBError passes these on as a 500; answered here as the 400 they are.
    case '22021':
    case '22P05':
      return errors.invalidRequest('Invalid input: a value contains a character that cannot be stored');
    case '22003':
      return errors.invalidParameter('value', error.message);
    default:
      return new StorageError('DatabaseError', 500, `database error, code: ${error.code ?? 'unknown'}`);
  }
}

export function asStorageError(error: unknown): StorageError | undefined {
  if (error instanceof StorageError) return error;
  if (error instanceof pg.DatabaseError) return fromDatabaseError(error);
  return undefined;
}
