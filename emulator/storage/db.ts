// Every query runs as the requester, the way storage-api scopes a transaction
// (supabase/storage src/internal/database/postgres/scope.ts): the JWT's role and claims are set
// locally, so RLS policies on storage.objects and storage.buckets decide, exactly as on a hosted
// project. "Admin" work (what storage-api does as its superuser) runs as supabase_storage_admin,
// which owns the storage tables and therefore is not subject to their policies.
import type pg from 'pg';
import { inTransaction } from '../lib/transaction.ts';
import { asStorageError } from './errors.ts';
import type { Requester } from './requester.ts';

export interface Scope {
  requester: Requester;
  /** storage-api's route operation name, exposed as `storage.operation` for policies. */
  operation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
}

const SCOPE_SQL = `select
  set_config('role', $1, true),
  set_config('request.jwt.claim.role', $1, true),
  set_config('request.jwt', $2, true),
  set_config('request.jwt.claim.sub', $3, true),
  set_config('request.jwt.claims', $4, true),
  set_config('request.headers', $5, true),
  set_config('request.method', $6, true),
  set_config('request.path', $7, true),
  set_config('storage.operation', $8, true),
  set_config('storage.allow_delete_query', 'true', true)`;

/** Thrown inside a transaction to roll back a statement that only tested a permission. */
const ROLLBACK = Symbol('rollback');

export class StorageDb {
  constructor(readonly pool: pg.Pool) {}

  private async transaction<T>(
    setup: ((client: pg.PoolClient) => Promise<unknown>) | undefined,
    fn: (client: pg.PoolClient) => Promise<T>,
  ): Promise<T> {
    try {
      return await inTransaction(this.pool, async (client) => {
        if (setup) await setup(client);
        return fn(client);
      });
    } catch (error) {
      if (error === ROLLBACK) throw error;
      throw asStorageError(error) ?? error;
    }
  }

  /** Runs `fn` in one transaction as the requester: their role, their claims, their RLS. */
  asUser<T>(scope: Scope, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const { requester } = scope;
    const sub = typeof requester.claims.sub === 'string' ? requester.claims.sub : '';
    return this.transaction(
      (client) =>
        client.query(SCOPE_SQL, [
          requester.role,
          requester.jwt,
          sub,
          JSON.stringify(requester.claims),
          JSON.stringify(scope.headers),
          scope.method,
          scope.path,
          scope.operation,
        ]),
      fn,
    );
  }

  /** Runs `fn` in one transaction as the storage admin, past RLS (storage-api's superuser). */
  asAdmin<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.transaction(undefined, fn);
  }

  /**
   * Runs statements as the requester (or the admin, without a scope) and rolls them back:
   * storage-api tests an upload's INSERT (or upsert) before it accepts a single byte (`testPermission`).
   */
  async test(scope: Scope | undefined, fn: (client: pg.PoolClient) => Promise<unknown>): Promise<void> {
    const attempt = async (client: pg.PoolClient) => {
      await fn(client);
      throw ROLLBACK;
    };
    try {
      await (scope ? this.asUser(scope, attempt) : this.asAdmin(attempt));
    } catch (error) {
      if (error !== ROLLBACK) throw error;
    }
  }
}
