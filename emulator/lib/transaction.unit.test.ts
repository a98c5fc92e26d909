// The shared transaction helper never hands a connection back to the pool after a failed rollback.
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { CommitThenThrow, inTransaction } from './transaction.ts';

function fakePool(failing: Set<string>) {
  const statements: string[] = [];
  const released: Array<boolean | Error | undefined> = [];
  const client = {
    query: async (text: string) => {
      statements.push(text);
      if (failing.has(text)) throw new Error(`${text} failed`);
      return { rows: [] };
    },
    release: (destroy?: boolean | Error) => void released.push(destroy),
  };
  // A stand-in for pg.Pool: only connect() is used, and only query() and release() of its client.
  const pool = { connect: async () => client as unknown as pg.PoolClient };
  return { pool, statements, released };
}

describe('inTransaction', () => {
  it('commits and returns the connection to the pool', async () => {
    const { pool, statements, released } = fakePool(new Set());
    expect(await inTransaction(pool, async (c) => (await c.query('select 1'), 42))).toBe(42);
    expect(statements).toEqual(['begin', 'select 1', 'commit']);
    expect(released).toEqual([false]);
  });

  it('destroys the connection when the rollback after an error fails', async () => {
    const { pool, statements, released } = fakePool(new Set(['select 1', 'rollback']));
    await expect(inTransaction(pool, async (c) => c.query('select 1'))).rejects.toThrow('select 1 failed');
    expect(statements).toEqual(['begin', 'select 1', 'rollback']);
    expect(released).toEqual([true]);
  });

  it('rolls back a probe that succeeded, and commits before rethrowing a CommitThenThrow', async () => {
    const probe = fakePool(new Set());
    await inTransaction(probe.pool, async () => 1, { rollbackAfter: true });
    expect(probe.statements).toEqual(['begin', 'rollback']);
    const commit = fakePool(new Set());
    const refusal = new Error('refused');
    await expect(
      inTransaction(commit.pool, async () => {
        throw new CommitThenThrow(refusal);
      }),
    ).rejects.toBe(refusal);
    expect(commit.statements).toEqual(['begin', 'commit']);
    expect(commit.released).toEqual([false]);
  });
});
