// The local platform schema against the description of hosted's in platform-schema.ts. Every
// difference is named by the object it concerns (`auth.sso_providers`, `storage.buckets.type`,
// `storage.search`…); each name must appear in backticks under "Known differences" in
// emulator/README.md. Owners, RLS flags and grants of the tables and functions both sides have admit no
// listed exception: they decide what an app's SQL may do, and naming a table in the README for another
// reason must not hide them. The list must also stay true: a name listed there that no longer differs
// fails too.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from '../../tests/support/backend.ts';
import {
  extensionExamples,
  functions,
  privilegeNames,
  roles,
  schemaOwners,
  tables,
  type Trigger,
} from './platform-schema.ts';

let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: backend().dbUrl });
  await db.connect();
});

afterAll(async () => {
  await db.end();
});

interface Difference {
  subject: string;
  what: string;
  /** Whether emulator/README.md may list it; owners, RLS and grants never are. */
  listable: boolean;
}

const platformSchemas = Object.keys(schemaOwners);

async function rowsOf<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query<T>(sql, params)).rows;
}

async function tableDifferences(differ: (d: Difference) => void): Promise<void> {
  const local = await rowsOf<{ name: string; owner: string; rls: boolean; partitioned: boolean }>(
    `select n.nspname || '.' || c.relname as name, pg_get_userbyid(c.relowner) as owner,
            c.relrowsecurity as rls, c.relkind = 'p' as partitioned
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = any($1) and c.relkind in ('r', 'p') and not c.relispartition`,
    [platformSchemas],
  );
  const localByName = new Map(local.map((t) => [t.name, t]));
  for (const name of localByName.keys())
    if (!(name in tables)) differ({ subject: name, what: 'table not upstream', listable: true });

  for (const [name, expected] of Object.entries(tables)) {
    const actual = localByName.get(name);
    if (!actual) {
      differ({ subject: name, what: 'table missing', listable: true });
      continue;
    }
    if (actual.owner !== expected.owner)
      differ({ subject: name, what: `owner ${actual.owner} instead of ${expected.owner}`, listable: false });
    if (actual.rls !== expected.rls)
      differ({ subject: name, what: `RLS ${actual.rls ? 'on' : 'off'}`, listable: false });
    if (actual.partitioned !== Boolean(expected.partitioned))
      differ({ subject: name, what: actual.partitioned ? 'partitioned' : 'not partitioned', listable: true });

    if (expected.columns) await columnDifferences(name, expected.columns, differ);

    for (const [role, allowed] of Object.entries(expected.privileges ?? {})) {
      for (const privilege of privilegeNames) {
        const [granted] = await rowsOf<{ has: boolean }>(
          'select has_table_privilege($1, to_regclass($2), $3) as has',
          [role, name, privilege],
        );
        if (granted?.has !== allowed.includes(privilege))
          differ({
            subject: name,
            what: `${role} ${granted?.has ? 'has' : 'lacks'} ${privilege}`,
            listable: false,
          });
      }
    }
    if (expected.grantable) {
      for (const privilege of privilegeNames) {
        const [granted] = await rowsOf<{ has: boolean }>(
          `select has_table_privilege('postgres', to_regclass($1), $2 || ' WITH GRANT OPTION') as has`,
          [name, privilege],
        );
        if (granted?.has !== expected.grantable.includes(privilege))
          differ({
            subject: name,
            what: `postgres ${granted?.has ? 'may' : 'may not'} grant ${privilege}`,
            listable: false,
          });
      }
    }
    await triggerDifferences(name, expected.triggers ?? {}, differ);
  }
}

async function columnDifferences(
  table: string,
  expected: NonNullable<(typeof tables)[string]['columns']>,
  differ: (d: Difference) => void,
): Promise<void> {
  const columns = await rowsOf<{
    name: string;
    type: string;
    nullable: boolean;
    default: string | null;
    generated: boolean;
  }>(
    `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, not a.attnotnull as nullable,
            case when a.attgenerated = '' then pg_get_expr(d.adbin, d.adrelid) end as default,
            a.attgenerated <> '' as generated
       from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attrelid = to_regclass($1) and a.attnum > 0 and not a.attisdropped`,
    [table],
  );
  const local = new Map(columns.map((c) => [c.name, c]));
  for (const [column, want] of Object.entries(expected)) {
    const have = local.get(column);
    const subject = `${table}.${column}`;
    const differ_ = (what: string) => differ({ subject, what, listable: true });
    if (!have) differ_('column missing');
    else {
      if (have.type !== want.type) differ_(`type ${have.type} instead of ${want.type}`);
      if (have.nullable !== want.nullable) differ_(have.nullable ? 'nullable' : 'not null');
      if (have.default !== want.default) differ_(`default ${have.default} instead of ${want.default}`);
      if (have.generated !== Boolean(want.generated)) differ_(have.generated ? 'generated' : 'not generated');
    }
  }
  for (const column of local.keys())
    if (!(column in expected))
      differ({ subject: `${table}.${column}`, what: 'column not upstream', listable: true });
}

/** Triggers whose function lives in a platform schema: the ones an app's migrations cannot have made. */
async function triggerDifferences(
  table: string,
  expected: Record<string, Trigger>,
  differ: (d: Difference) => void,
): Promise<void> {
  const local = await rowsOf<{ name: string; type: number; of: string[]; function: string }>(
    `select t.tgname as name, t.tgtype as type, p.pronamespace::regnamespace::text || '.' || p.proname as function,
            array(select a.attname::text from unnest(t.tgattr) as k(num)
                    join pg_attribute a on a.attrelid = t.tgrelid and a.attnum = k.num) as of
       from pg_trigger t join pg_proc p on p.oid = t.tgfoid
      where t.tgrelid = to_regclass($1) and not t.tgisinternal and p.pronamespace::regnamespace::text = any($2)`,
    [table, platformSchemas],
  );
  const describe = (t: Trigger) =>
    `${t.timing} ${t.events.join(' OR ')}${t.of?.length ? ` OF ${t.of.join(', ')}` : ''} FOR EACH ${t.level} → ${t.function}`;
  const fromCatalogue = (t: (typeof local)[number]): Trigger => ({
    // pg_trigger.tgtype bits (PostgreSQL's catalog/pg_trigger.h): 1 row, 2 before, 4 insert, 8 delete,
    // 16 update, 32 truncate.
    timing: t.type & 2 ? 'BEFORE' : 'AFTER',
    events: (
      [
        [4, 'INSERT'],
        [16, 'UPDATE'],
        [8, 'DELETE'],
        [32, 'TRUNCATE'],
      ] as const
    )
      .filter(([bit]) => t.type & bit)
      .map(([, event]) => event),
    of: t.of,
    level: t.type & 1 ? 'ROW' : 'STATEMENT',
    function: t.function,
  });
  const byName = new Map(local.map((t) => [t.name, describe(fromCatalogue(t))]));
  for (const [name, want] of Object.entries(expected)) {
    const have = byName.get(name);
    const subject = `${table}.${name}`;
    if (!have) differ({ subject, what: 'trigger missing', listable: true });
    else if (have !== describe(want))
      differ({ subject, what: `${have} instead of ${describe(want)}`, listable: true });
  }
  for (const name of byName.keys())
    if (!(name in expected))
      differ({ subject: `${table}.${name}`, what: 'trigger not upstream', listable: true });
}

async function functionDifferences(differ: (d: Difference) => void): Promise<void> {
  const local = await rowsOf<{
    signature: string;
    name: string;
    returns: string;
    owner: string;
    definer: boolean;
    oid: number;
  }>(
    `select p.pronamespace::regnamespace::text || '.' || p.proname || '(' ||
              pg_get_function_identity_arguments(p.oid) || ')' as signature,
            p.pronamespace::regnamespace::text || '.' || p.proname as name,
            pg_get_function_result(p.oid) as returns, pg_get_userbyid(p.proowner) as owner,
            p.prosecdef as definer, p.oid
       from pg_proc p where p.pronamespace::regnamespace::text = any($1)`,
    [platformSchemas],
  );
  const bySignature = new Map(local.map((f) => [f.signature, f]));
  // realtime."cast" is listed as `realtime.cast`.
  const nameOf = (signature: string) => signature.slice(0, signature.indexOf('(')).replaceAll('"', '');
  for (const f of local)
    if (!(f.signature in functions))
      differ({ subject: f.name, what: `${f.signature} not upstream`, listable: true });

  for (const [signature, expected] of Object.entries(functions)) {
    const subject = nameOf(signature);
    const have = bySignature.get(signature);
    if (!have) {
      differ({ subject, what: `${signature} missing`, listable: true });
      continue;
    }
    if (have.returns !== expected.returns)
      differ({ subject, what: `returns ${have.returns} instead of ${expected.returns}`, listable: true });
    if (have.owner !== expected.owner)
      differ({ subject, what: `owner ${have.owner} instead of ${expected.owner}`, listable: false });
    if (have.definer !== expected.securityDefiner)
      differ({ subject, what: have.definer ? 'security definer' : 'security invoker', listable: false });
    for (const role of roles) {
      const [granted] = await rowsOf<{ has: boolean }>(
        `select has_function_privilege($1, $2::oid, 'EXECUTE') as has`,
        [role, have.oid],
      );
      if (granted?.has !== expected.execute.includes(role))
        differ({ subject, what: `${role} ${granted?.has ? 'may' : 'may not'} call it`, listable: false });
    }
  }

  for (const [input, output] of extensionExamples) {
    const [row] = await rowsOf<{ ext: string }>('select storage.extension($1) as ext', [input]);
    if (row?.ext !== output)
      differ({ subject: 'storage.extension', what: `'${input}' gives '${row?.ext}'`, listable: true });
  }
}

async function differences(): Promise<Difference[]> {
  const found: Difference[] = [];
  const differ = (d: Difference) => found.push(d);
  for (const [schema, owner] of Object.entries(schemaOwners)) {
    const [row] = await rowsOf<{ owner: string }>(
      'select pg_get_userbyid(nspowner) as owner from pg_namespace where nspname = $1',
      [schema],
    );
    if (row?.owner !== owner)
      differ({ subject: schema, what: `schema owner ${row?.owner} instead of ${owner}`, listable: false });
  }
  await tableDifferences(differ);
  await functionDifferences(differ);
  return found;
}

/** The backticked platform names under "Known differences" in emulator/README.md. */
function listedDifferences(): Set<string> {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../README.md'), 'utf8');
  const start = readme.indexOf('## Known differences');
  if (start < 0) return new Set();
  const names = readme.slice(start).matchAll(/`((?:auth|storage|realtime)\.[a-z0-9_.]+)`/g);
  return new Set(Array.from(names, (m) => m[1] ?? ''));
}

describe('the platform schema', () => {
  it('matches hosted in every table, column, owner, RLS flag, grant, trigger and function, except those listed', async () => {
    const listed = listedDifferences();
    const unlisted = (await differences())
      .filter((d) => !(d.listable && listed.has(d.subject)))
      .map((d) => `${d.subject}: ${d.what}`);
    expect(unlisted).toEqual([]);
  });

  it('lists under Known differences only what does differ', async () => {
    const differing = new Set((await differences()).filter((d) => d.listable).map((d) => d.subject));
    expect([...listedDifferences()].filter((name) => !differing.has(name))).toEqual([]);
  });
});
