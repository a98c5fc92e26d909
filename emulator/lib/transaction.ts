// The one transaction helper of every service: begin, run, commit (or roll back), and a connection
// whose rollback failed is destroyed instead of going back to the pool, where the next request would
// inherit an aborted or half-open transaction.
import type pg from 'pg';

/**
 * Thrown from inside a transaction to commit what it did and still fail the request, as GoTrue's
 * storage.NewCommitWithError does (a detected refresh-token reuse revokes the family, then answers 400).
 */
export class CommitThenThrow extends Error {
  constructor(readonly error: unknown) {
    super('commit, then throw');
  }
}

export interface TransactionOptions {
  /** Roll back even when `fn` succeeds: statements that only probe a permission. */
  rollbackAfter?: boolean;
}

type Pool = Pick<pg.Pool, 'connect'>;

export async function inTransaction<T>(
  pool: Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('begin');
    const result = await fn(client);
    await client.query(options.rollbackAfter ? 'rollback' : 'commit');
    return result;
  } catch (error) {
    if (error instanceof CommitThenThrow) {
      try {
        await client.query('commit');
      } catch (commitError) {
        await client.query('rollback').catch(() => (broken = true));
        throw commitError;
      }
      throw error.error;
    }
    await client.query('rollback').catch(() => (broken = true));
    throw error;
  } finally {
    client.release(broken);
  }
}
