// postgres_changes: row changes from the replication stream, delivered to each subscriber that may
// see them, as realtime's `realtime.apply_rls` decides (supabase/realtime lib/realtime/tenants/repo/
// migrations/*_fix_apply_rls_filter_role_leak.ex):
// - only columns the subscriber's role may SELECT are sent; without SELECT on the primary key the
//   change arrives as `Error 401: Unauthorized`, on a table without one as `Error 400: …`;
// - filters compare typed values in SQL (`'<value>'::<column type> = '<filter>'::<column type>`);
// - INSERTs and UPDATEs of a table with RLS reach a subscriber only if `select exists(… where <pk>)`
//   finds the row as the subscriber's role with their claims in `request.jwt.claims`;
// - DELETEs are not RLS-checked: with RLS on, `old_record` carries the primary key only.
// Values are cast from pgoutput's text form with `to_jsonb(<text>::<type>)`, as `realtime.cast` does.
import type pg from 'pg';
import { inTransaction } from '../lib/transaction.ts';
import type { Claims } from './tokens.ts';
import type { Action, Filter, SubscriptionParams } from './filters.ts';
import type { LogicalMessage, Relation, TupleValue } from './pgoutput.ts';

export interface Binding {
  id: number;
  params: SubscriptionParams;
  /** Tables (pg_class oids) of the publication this binding matched when it subscribed. */
  entities: Set<number>;
}

export interface ChangeSubscriber {
  claims: Claims;
  bindings: Binding[];
  deliver(message: { ids: number[]; data: Record<string, unknown> }): void;
}

interface ColumnMeta {
  name: string;
  /** pg_type.typname, what the payload's `columns` report. */
  typname: string;
  /** The type as SQL text for casts (`integer`, `public.task_priority`). */
  sqlType: string;
  isPk: boolean;
}

interface TableMeta {
  columns: ColumnMeta[];
  rls: boolean;
  /** Per role: the columns it may SELECT. */
  selectable: Map<string, Set<string>>;
  fetchedAt: number;
}

const MAX_RECORD_BYTES = 1024 * 1024;
/** Column privileges are read again after this long (realtime reads them for every change). */
const META_TTL_MS = 1000;

/**
 * realtime's RLS probe loop (the `walrus_rls_stmt` part of `realtime.apply_rls`) as a function of the
 * session: for each subscriber, `role` and `request.jwt.claims` set locally, then the row looked up by
 * its primary key. A probe that fails (a policy raising) counts as not visible. Each pooled
 * connection creates it in `pg_temp`, so nothing is left in the database.
 *
 * Only the subscribers whose filters the change passes are probed (`wanted`), as realtime checks
 * `is_visible_through_filters` before RLS: a board watched by 50 people costs nothing when a task
 * of another board changes.
 *
 * The probes first wait for the change's transaction (`xid`, the 32-bit one of pgoutput's BEGIN) to be
 * visible to a new snapshot. A synchronous commit flushes its commit record, which the walsender
 * then streams, a moment before the committing backend leaves the proc array; a probe in that moment
 * finds no row (an UPDATE: the row as it was), and the change would be dropped for every subscriber.
 * The wait gives up after 5 s (the transaction did commit), then probes as before.
 */
export const VISIBLE_SQL = `create or replace function pg_temp.realtime_visible(entity regclass, condition text, roles text[], claims text[], change_xid bigint, wanted_claims boolean[] default null)
returns boolean[] language plpgsql set search_path = '' as $$
declare
  wanted boolean[] := coalesce(wanted_claims, array_fill(true, array[coalesce(array_length(roles, 1), 0)]));
  result boolean[] := '{}';
  visible boolean;
  horizon bigint;
  full_xid bigint;
begin
  if coalesce(array_length(roles, 1), 0) = 0 then
    return result;
  end if;
  if not (true = any (wanted)) then
    return array_fill(false, array[array_length(roles, 1)]);
  end if;
  if change_xid is not null then
    -- The full xid is the one of its 32 bits nearest the current snapshot's xmax.
    horizon := pg_snapshot_xmax(pg_current_snapshot())::text::bigint;
    full_xid := (horizon >> 32 << 32) | change_xid;
    if full_xid > horizon + 2147483648 and full_xid >= 4294967296 then
      full_xid := full_xid - 4294967296;
    elsif full_xid < horizon - 2147483648 then
      full_xid := full_xid + 4294967296;
    end if;
    -- Each iteration of a volatile function's loop takes a new snapshot.
    for attempt in 1 .. 5000 loop
      exit when pg_visible_in_snapshot(full_xid::text::xid8, pg_current_snapshot());
      perform pg_sleep(0.001);
    end loop;
  end if;
  -- One plan for every subscriber of a role, as realtime prepares walrus_rls_stmt.
  begin
    execute format('prepare realtime_probe as select exists(select 1 from %s where %s)', entity, condition);
    for i in 1 .. array_length(roles, 1) loop
      if wanted[i] is not true then
        result := result || false;
        continue;
      end if;
      perform set_config('role', roles[i], true), set_config('request.jwt.claims', claims[i], true);
      execute 'execute realtime_probe' into visible;
      perform set_config('role', null, true);
      result := result || visible;
    end loop;
    deallocate realtime_probe;
    return result;
  exception when others then
    perform set_config('role', null, true);
    if exists (select 1 from pg_prepared_statements where name = 'realtime_probe') then
      deallocate realtime_probe;
    end if;
  end;
  -- A probe failed (a policy raising, say): again one by one, a failing one counting as not visible.
  result := '{}';
  for i in 1 .. array_length(roles, 1) loop
    if wanted[i] is not true then
      result := result || false;
      continue;
    end if;
    begin
      perform set_config('role', roles[i], true), set_config('request.jwt.claims', claims[i], true);
      execute format('select exists(select 1 from %s where %s)', entity, condition) into visible;
    exception when others then
      visible := false;
    end;
    perform set_config('role', null, true);
    result := result || visible;
  end loop;
  return result;
end $$`;

const SUBSCRIBE_ERROR = 'Unable to subscribe to changes with given parameters.';

function describe(params: SubscriptionParams): string {
  const filters = params.filters.map((f) => `{"${f.column}", "${f.op}", "${f.value}", ${f.negate}}`);
  const select = params.select ? `[${params.select.map((c) => `"${c}"`).join(', ')}]` : 'nil';
  return `event: ${params.action}, schema: ${params.schema}, table: ${params.table}, filters: [${filters.join(', ')}], select: ${select}`;
}

type Column = { name: string; value: TupleValue; typeOid: number };

export class ChangeFeed {
  private readonly subscribers = new Set<ChangeSubscriber>();
  private readonly relations = new Map<number, Relation>();
  private readonly meta = new Map<number, TableMeta>();
  private readonly typeNames = new Map<number, string>();
  private commitTime = new Date();
  /** The transaction of the changes being handled (BEGIN's xid). */
  private xid: number | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly publication: string,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Resolves each binding to the publication's tables and checks its filters as realtime's
   * `subscription_check_filters` trigger does. Returns an error message, or undefined when subscribed.
   */
  async subscribe(subscriber: ChangeSubscriber): Promise<string | undefined> {
    for (const binding of subscriber.bindings) {
      const { schema, table } = binding.params;
      const { rows } = await this.pool.query<{ oid: number }>(
        `select format('%I.%I', schemaname, tablename)::regclass::oid as oid
           from pg_publication_tables
          where pubname = $1
            and schemaname like (case $2 when '*' then '%' else $2 end) escape ''
            and tablename like (case $3 when '*' then '%' else $3 end) escape ''`,
        [this.publication, schema, table],
      );
      if (rows.length === 0) {
        return `${SUBSCRIBE_ERROR} Please check Realtime is enabled for the given connect parameters: [${describe(binding.params)}]`;
      }
      binding.entities = new Set(rows.map((r) => Number(r.oid)));
      try {
        await this.checkFilters(subscriber.claims.role, binding);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return `${SUBSCRIBE_ERROR} An exception happened so please check your connect parameters: [${describe(binding.params)}]. Exception: ${message}`;
      }
    }
    this.subscribers.add(subscriber);
    return undefined;
  }

  unsubscribe(subscriber: ChangeSubscriber): void {
    this.subscribers.delete(subscriber);
  }

  private async checkFilters(role: string, binding: Binding): Promise<void> {
    const { rows } = await this.pool.query<{ exists: boolean }>(
      'select exists(select 1 from pg_roles where rolname = $1) as exists',
      [role],
    );
    if (!rows[0]?.exists) throw new Error(`role "${role}" does not exist`);
    for (const oid of binding.entities) {
      const meta = await this.tableMeta(oid, [role], true);
      const selectable = meta.selectable.get(role) ?? new Set();
      for (const filter of binding.params.filters) {
        const column = meta.columns.find((c) => c.name === filter.column);
        if (!column || !selectable.has(filter.column)) {
          throw new Error(`invalid column for filter ${filter.column}`);
        }
        if (filter.op === 'in') {
          const { rows: counted } = await this.pool.query<{ n: number | null }>(
            `select cardinality($1::text::${column.sqlType}[]) as n`,
            [filter.value],
          );
          if ((counted[0]?.n ?? 0) > 100) throw new Error('too many values for `in` filter. Maximum 100');
        } else if (filter.op === 'is') {
          if (!['null', 'true', 'false', 'unknown'].includes(filter.value)) {
            throw new Error('invalid value for is filter: must be null, true, false, or unknown');
          }
          if (filter.value !== 'null' && column.typname !== 'bool') {
            throw new Error(`is ${filter.value} filter requires a boolean column, got ${column.sqlType}`);
          }
        } else {
          await this.pool.query(`select $1::text::${column.sqlType}`, [filter.value]);
        }
      }
    }
  }

  /** Columns, RLS and the column privileges of `roles` on a table, cached briefly. */
  private async tableMeta(oid: number, roles: string[], fresh = false): Promise<TableMeta> {
    let meta = this.meta.get(oid);
    if (!meta || fresh || Date.now() - meta.fetchedAt > META_TTL_MS) {
      const { rows } = await this.pool.query<{
        name: string;
        typname: string;
        sql_type: string;
        is_pk: boolean;
        rls: boolean;
      }>(
        `select a.attname::text as name, t.typname::text as typname, format_type(a.atttypid, null) as sql_type,
                exists(select 1 from pg_constraint c
                        where c.conrelid = a.attrelid and c.contype = 'p' and a.attnum = any(c.conkey)) as is_pk,
                (select relrowsecurity from pg_class where oid = a.attrelid) as rls
           from pg_attribute a join pg_type t on t.oid = a.atttypid
          where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped
          order by a.attnum`,
        [oid],
      );
      meta = {
        columns: rows.map((r) => ({ name: r.name, typname: r.typname, sqlType: r.sql_type, isPk: r.is_pk })),
        rls: rows[0]?.rls ?? false,
        selectable: new Map(),
        fetchedAt: Date.now(),
      };
      this.meta.set(oid, meta);
    }
    const missing = roles.filter((role) => !meta.selectable.has(role));
    if (missing.length > 0) {
      const { rows } = await this.pool.query<{ role: string; names: string[] | null }>(
        `select r.role, array_agg(a.attname::text) filter (where has_column_privilege(r.role, $1::oid, a.attnum, 'SELECT')) as names
           from unnest($2::text[]) as r(role)
           cross join pg_attribute a
          where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped
            and exists(select 1 from pg_roles where rolname = r.role)
          group by r.role`,
        [oid, missing],
      );
      for (const role of missing) {
        const row = rows.find((r) => r.role === role);
        meta.selectable.set(role, new Set(row?.names ?? []));
      }
    }
    return meta;
  }

  private async sqlTypeOf(typeOid: number): Promise<string> {
    let name = this.typeNames.get(typeOid);
    if (!name) {
      const { rows } = await this.pool.query<{ name: string }>('select format_type($1::oid, null) as name', [
        typeOid,
      ]);
      name = rows[0]?.name ?? 'text';
      this.typeNames.set(typeOid, name);
    }
    return name;
  }

  async handle(message: LogicalMessage): Promise<void> {
    switch (message.tag) {
      case 'begin':
        this.commitTime = message.commitTime;
        this.xid = message.xid;
        return;
      case 'relation':
        this.relations.set(message.relation.oid, message.relation);
        this.meta.delete(message.relation.oid);
        return;
      case 'insert':
        return this.change('INSERT', message.relationOid, message.tuple, null, null);
      case 'update':
        return this.change('UPDATE', message.relationOid, message.tuple, message.old, message.oldKind);
      case 'delete':
        return this.change('DELETE', message.relationOid, null, message.old, message.oldKind);
      default:
        return;
    }
  }

  private async change(
    action: Exclude<Action, '*'>,
    oid: number,
    tuple: TupleValue[] | null,
    oldTuple: TupleValue[] | null,
    oldKind: 'K' | 'O' | null,
  ): Promise<void> {
    const relation = this.relations.get(oid);
    if (!relation) return;
    const candidates: Array<{ subscriber: ChangeSubscriber; binding: Binding }> = [];
    for (const subscriber of this.subscribers) {
      for (const binding of subscriber.bindings) {
        const wanted = binding.params.action === '*' || binding.params.action === action;
        if (wanted && binding.entities.has(oid)) candidates.push({ subscriber, binding });
      }
    }
    if (candidates.length === 0) return;
    const commitTime = this.commitTime;
    const xid = this.xid;

    const roles = [...new Set(candidates.map((c) => c.subscriber.claims.role))];
    const meta = await this.tableMeta(oid, roles);

    // The new row's columns (an unchanged TOASTed value is left out), and the old identity: what
    // pgoutput sent as the old tuple, else — for an UPDATE that kept its key — the key columns of
    // the new row, as wal2json reports them to realtime.
    const columns: Column[] = [];
    if (tuple) {
      relation.columns.forEach((c, i) => {
        const value = tuple[i];
        if (value !== undefined) columns.push({ name: c.name, value, typeOid: c.typeOid });
      });
    }
    const oldColumns: Column[] = [];
    const oldSource = oldTuple ?? (action === 'UPDATE' && relation.replicaIdentity !== 'n' ? tuple : null);
    if (oldSource) {
      const keysOnly = oldTuple === null || oldKind === 'K';
      relation.columns.forEach((c, i) => {
        const value = oldSource[i];
        if (value !== undefined && (!keysOnly || c.isKey)) {
          oldColumns.push({ name: c.name, value, typeOid: c.typeOid });
        }
      });
    }

    const batch = await this.evaluate(relation, meta, action, columns, oldColumns, candidates, xid);
    const tooLarge =
      JSON.stringify(batch.values).length + JSON.stringify(batch.oldValues).length > MAX_RECORD_BYTES;

    // One payload per (role, selected columns), delivered with the ids of the bindings that see it.
    const payloads = new Map<string, Record<string, unknown>>();
    const deliveries = new Map<ChangeSubscriber, Map<string, number[]>>();
    for (const { subscriber, binding } of candidates) {
      const role = subscriber.claims.role;
      const selectable = meta.selectable.get(role) ?? new Set<string>();
      const pkColumns = meta.columns.filter((c) => c.isPk);
      const select = binding.params.select;
      const groupKey = `${role}\u0000${select ? select.join(',') : ''}`;
      let payload = payloads.get(groupKey);
      let visible: boolean;
      if (action !== 'DELETE' && pkColumns.length === 0) {
        payload ??= this.errorPayload(relation, action, 'Error 400: Bad Request, no primary key');
        visible = true;
      } else if (action !== 'DELETE' && pkColumns.some((c) => !selectable.has(c.name))) {
        payload ??= this.errorPayload(relation, action, 'Error 401: Unauthorized');
        visible = true;
      } else {
        const { filters } = binding.params;
        visible =
          filters.every((f) => batch.filterResult(f, columns)) ||
          (action === 'DELETE' && filters.every((f) => batch.filterResult(f, oldColumns)));
        if (visible && meta.rls && action !== 'DELETE') {
          visible = batch.rlsAllows(subscriber.claims);
        }
        payload ??= this.payload(relation, meta, action, commitTime, selectable, select, batch, tooLarge);
      }
      payloads.set(groupKey, payload);
      if (!visible) continue;
      let groups = deliveries.get(subscriber);
      if (!groups) deliveries.set(subscriber, (groups = new Map()));
      const ids = groups.get(groupKey) ?? [];
      if (!ids.includes(binding.id)) ids.push(binding.id);
      groups.set(groupKey, ids);
    }
    // Subscribers given the same ids get the same message object, which is then serialized once.
    const messages = new Map<string, { ids: number[]; data: Record<string, unknown> }>();
    for (const [subscriber, groups] of deliveries) {
      for (const [groupKey, ids] of groups) {
        const data = payloads.get(groupKey);
        if (!data) continue;
        const key = `${groupKey}\u0000${ids.join(',')}`;
        let message = messages.get(key);
        if (!message) messages.set(key, (message = { ids, data }));
        subscriber.deliver(message);
      }
    }
  }

  private errorPayload(relation: Relation, action: string, error: string): Record<string, unknown> {
    return { schema: relation.schema, table: relation.table, type: action, errors: [error] };
  }

  private payload(
    relation: Relation,
    meta: TableMeta,
    action: string,
    commitTime: Date,
    selectable: Set<string>,
    select: string[] | null,
    batch: Evaluation,
    tooLarge: boolean,
  ): Record<string, unknown> {
    const pk = new Set(meta.columns.filter((c) => c.isPk).map((c) => c.name));
    const wanted = (name: string) =>
      selectable.has(name) && (select === null || select.includes(name) || pk.has(name));
    const small = (value: unknown) => !tooLarge || JSON.stringify(value).length <= 64;
    const pick = (values: Map<string, unknown>, keep: (name: string) => boolean) => {
      const out: Record<string, unknown> = {};
      let any = false;
      for (const [name, value] of values) {
        if (wanted(name) && keep(name) && small(value)) {
          out[name] = value;
          any = true;
        }
      }
      return any ? out : null;
    };
    const data: Record<string, unknown> = {
      schema: relation.schema,
      table: relation.table,
      commit_timestamp: commitTime.toISOString(),
      type: action,
      columns: meta.columns.filter((c) => wanted(c.name)).map((c) => ({ name: c.name, type: c.typname })),
    };
    if (action === 'INSERT' || action === 'UPDATE') {
      // An unchanged TOASTed value comes from the old tuple, when the table sends one.
      const merged = new Map<string, unknown>();
      for (const [k, v] of batch.oldValues) if (!batch.values.has(k)) merged.set(k, v);
      for (const [k, v] of batch.values) merged.set(k, v);
      data.record = pick(merged, () => true);
    }
    if (action === 'UPDATE') data.old_record = pick(batch.oldValues, () => true);
    if (action === 'DELETE') data.old_record = pick(batch.oldValues, (name) => !meta.rls || pk.has(name));
    data.errors = tooLarge ? ['Error 413: Payload Too Large'] : null;
    return data;
  }

  /**
   * One round trip for a change: the values cast to JSON, every distinct filter evaluated, and the
   * RLS probe for every distinct set of claims, each as its role (see VISIBLE_SQL).
   */
  private async evaluate(
    relation: Relation,
    meta: TableMeta,
    action: string,
    columns: Column[],
    oldColumns: Column[],
    candidates: Array<{ subscriber: ChangeSubscriber; binding: Binding }>,
    xid: number | null,
  ): Promise<Evaluation> {
    // A probe that must not stay: policies run in a transaction that is always rolled back, and a
    // connection whose rollback failed is destroyed (lib/transaction.ts), not handed back.
    try {
      return await inTransaction(
        this.pool,
        (client) => this.evaluateOn(client, relation, meta, action, columns, oldColumns, candidates, xid),
        { rollbackAfter: true },
      );
    } catch (error) {
      this.log(`realtime: change of ${relation.schema}.${relation.table} not evaluated: ${String(error)}`);
      return new Evaluation(new Map(), new Map(), new Map(), new Map());
    }
  }

  private async evaluateOn(
    client: pg.PoolClient,
    relation: Relation,
    meta: TableMeta,
    action: string,
    columns: Column[],
    oldColumns: Column[],
    candidates: Array<{ subscriber: ChangeSubscriber; binding: Binding }>,
    xid: number | null,
  ): Promise<Evaluation> {
    const lit = (value: string | null) => (value === null ? 'null' : client.escapeLiteral(value));
    const cast = async (c: Column) => {
      const type = await this.sqlTypeOf(c.typeOid);
      // bytea stays the text Postgres printed, as realtime.cast does.
      return type === 'bytea'
        ? `to_jsonb(${lit(c.value ?? null)}::text)`
        : `to_jsonb(${lit(c.value ?? null)}::${type})`;
    };
    const valueSql = await Promise.all(columns.map(cast));
    const oldSql = await Promise.all(oldColumns.map(cast));

    const filterKeys: string[] = [];
    const filterSql: string[] = [];
    const filterOf = (f: Filter, source: Column[]) =>
      `${f.column}\u0000${f.op}\u0000${f.value}\u0000${f.negate}\u0000${source === columns ? 'n' : 'o'}`;
    for (const source of [columns, oldColumns]) {
      for (const { binding } of candidates) {
        for (const f of binding.params.filters) {
          const key = filterOf(f, source);
          const col = source.find((c) => c.name === f.column);
          if (!col || filterKeys.includes(key)) continue;
          filterKeys.push(key);
          filterSql.push(compare(f, lit(col.value ?? null), await this.sqlTypeOf(col.typeOid), lit));
        }
      }
    }

    const pkColumns = meta.columns.filter((c) => c.isPk);
    const probeClaims: Claims[] = [];
    let wantedSql: string[] = [];
    let condition = 'false';
    if (meta.rls && action !== 'DELETE' && pkColumns.length > 0) {
      condition = pkColumns
        .map(
          (pk) =>
            `${client.escapeIdentifier(pk.name)} = ${lit(columns.find((c) => c.name === pk.name)?.value ?? null)}`,
        )
        .join(' and ');
      // Per distinct claims: the filter sets of its bindings (SQL over `f`, the filters' results);
      // it is probed when any set passes the new row, as realtime filters before it checks RLS.
      const passes = new Map<string, string[]>();
      for (const { subscriber, binding } of candidates) {
        const claims = subscriber.claims;
        const selectable = meta.selectable.get(claims.role) ?? new Set();
        if (pkColumns.some((c) => !selectable.has(c.name))) continue;
        const key = JSON.stringify(claims);
        let alternatives = passes.get(key);
        if (!alternatives) {
          passes.set(key, (alternatives = []));
          probeClaims.push(claims);
        }
        alternatives.push(
          binding.params.filters
            .map((f) => {
              const i = filterKeys.indexOf(filterOf(f, columns));
              return i < 0 ? 'false' : `(f.f -> ${i})::boolean is true`;
            })
            .join(' and ') || 'true',
        );
      }
      wantedSql = probeClaims.map((c) => `(${(passes.get(JSON.stringify(c)) ?? ['false']).join(') or (')})`);
    }
    const { rows } = await client.query<{
      v: unknown[];
      o: unknown[];
      f: Array<boolean | null>;
      rls: Array<boolean | null>;
    }>(
      `with f as (select jsonb_build_array(${filterSql.join(', ')}) as f)
       select jsonb_build_array(${valueSql.join(', ')}) as v, jsonb_build_array(${oldSql.join(', ')}) as o, f.f,
              pg_temp.realtime_visible($1::oid::regclass, $2, $3::text[], $4::text[], $5::bigint,
                                       array[${wantedSql.join(', ')}]::boolean[]) as rls
         from f`,
      [
        relation.oid,
        condition,
        probeClaims.map((c) => c.role),
        probeClaims.map((c) => JSON.stringify(c)),
        xid,
      ],
    );
    const row = rows[0];
    const values = new Map<string, unknown>(columns.map((c, i) => [c.name, row?.v[i] ?? null]));
    const oldValues = new Map<string, unknown>(oldColumns.map((c, i) => [c.name, row?.o[i] ?? null]));
    const filters = new Map<string, boolean>(filterKeys.map((k, i) => [k, row?.f[i] === true]));
    const rls = new Map<string, boolean>(
      probeClaims.map((claims, i) => [JSON.stringify(claims), row?.rls[i] === true]),
    );
    return new Evaluation(values, oldValues, filters, rls, filterOf);
  }
}

/** SQL for one filter applied to one value, as realtime's `check_equality_op`. */
function compare(f: Filter, value: string, type: string, lit: (v: string) => string): string {
  if (f.op === 'isdistinct') {
    return `(${value}::${type} ${f.negate ? 'is not distinct from' : 'is distinct from'} ${lit(f.value)}::${type})`;
  }
  if (f.op === 'is') {
    return `(${value}::${type} ${f.negate ? 'is not' : 'is'} ${f.value.toUpperCase()})`;
  }
  const symbol = {
    eq: '=',
    neq: '!=',
    lt: '<',
    lte: '<=',
    gt: '>',
    gte: '>=',
    in: '= any',
    like: 'like',
    ilike: 'ilike',
    match: '~',
    imatch: '~*',
  }[f.op];
  const right = `(${lit(f.value)}::${type}${f.op === 'in' ? '[]' : ''})`;
  const expr = `(${value}::${type} ${symbol} ${right})`;
  return f.negate ? `(not ${expr})` : expr;
}

class Evaluation {
  constructor(
    readonly values: Map<string, unknown>,
    readonly oldValues: Map<string, unknown>,
    private readonly filters: Map<string, boolean>,
    private readonly rls: Map<string, boolean>,
    private readonly keyOf?: (f: Filter, source: Column[]) => string,
  ) {}

  /** Whether `source` passes the filter; a column the change does not carry fails it. */
  filterResult(f: Filter, source: Column[]): boolean {
    if (!this.keyOf || !source.some((c) => c.name === f.column)) return false;
    return this.filters.get(this.keyOf(f, source)) === true;
  }

  rlsAllows(claims: Claims): boolean {
    return this.rls.get(JSON.stringify(claims)) === true;
  }
}
