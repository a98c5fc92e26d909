// Private channels, authorized by the RLS policies on `realtime.messages` as realtime probes them
// (supabase/realtime lib/realtime/tenants/authorization.ex): reads by inserting probe rows as the
// service and selecting them back as the user; writes by inserting as the user. Both run with
// `role`, `realtime.topic`, `request.jwt.claims`, `request.jwt.claim.sub`, `request.jwt.claim.role`
// and `request.headers` set locally, in a transaction that is rolled back.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inTransaction } from '../lib/transaction.ts';

export type Extension = 'broadcast' | 'presence';

export interface AuthorizationContext {
  topic: string;
  claims: Record<string, unknown> & { role: string };
  headers: Record<string, string>;
}

const CONFIG_SQL = `select
  set_config('role', $1, true),
  set_config('realtime.topic', $2, true),
  set_config('request.jwt.claims', $3, true),
  set_config('request.jwt.claim.sub', $4, true),
  set_config('request.jwt.claim.role', $1, true),
  set_config('request.headers', $5, true)`;

function configValues(context: AuthorizationContext): string[] {
  const sub = typeof context.claims.sub === 'string' ? context.claims.sub : '';
  return [
    context.claims.role,
    context.topic,
    JSON.stringify(context.claims),
    sub,
    JSON.stringify(context.headers),
  ];
}

function rolledBack<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(pool, fn, { rollbackAfter: true });
}

/** Which extensions the user may read on the topic. */
export async function readPolicies(
  pool: pg.Pool,
  context: AuthorizationContext,
  extensions: Extension[],
): Promise<Map<Extension, boolean>> {
  return rolledBack(pool, async (client) => {
    const probes = extensions.map((extension) => ({ extension, id: randomUUID() }));
    for (const probe of probes) {
      await client.query('insert into realtime.messages (id, topic, extension) values ($1, $2, $3)', [
        probe.id,
        context.topic,
        probe.extension,
      ]);
    }
    await client.query(CONFIG_SQL, configValues(context));
    const { rows } = await client.query<{ id: string }>(
      'select id from realtime.messages where id = any($1::uuid[])',
      [probes.map((p) => p.id)],
    );
    const seen = new Set(rows.map((r) => r.id));
    return new Map(probes.map((p) => [p.extension, seen.has(p.id)]));
  });
}

/** Which extensions the user may write (broadcast, track presence) on the topic. */
export async function writePolicies(
  pool: pg.Pool,
  context: AuthorizationContext,
  extensions: Extension[],
): Promise<Map<Extension, boolean>> {
  return rolledBack(pool, async (client) => {
    await client.query(CONFIG_SQL, configValues(context));
    const result = new Map<Extension, boolean>();
    for (const extension of extensions) {
      await client.query('savepoint probe');
      try {
        await client.query('insert into realtime.messages (topic, extension) values ($1, $2)', [
          context.topic,
          extension,
        ]);
        result.set(extension, true);
      } catch (error) {
        if (!(error instanceof pg.DatabaseError) || error.code !== '42501') throw error;
        result.set(extension, false);
      }
      await client.query('rollback to savepoint probe');
    }
    return result;
  });
}
