// The local platform schema against the description of hosted's in platform-schema.ts. Every
// difference is named by the object it concerns (`auth.sso_providers`, `storage.buckets.type`…);
// each name must appear in backticks under "Known differences" in emulator/README.md.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from '../../tests/support/backend.ts';
import { extensionExamples, functions, schemaOwners, tables } from './platform-schema.ts';

let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: backend().dbUrl });
  await db.connect();
});

afterAll(async () => {
  await db.end();
});

async function differences(): Promise<Array<{ subject: string; what: string }>> {
  const found: Array<{ subject: string; what: string }> = [];
  const differ = (subject: string, what: string) => found.push({ subject, what });

  for (const [schema, owner] of Object.entries(schemaOwners)) {
    const { rows } = await db.query<{ owner: string }>(
      'select pg_get_userbyid(nspowner) as owner from pg_namespace where nspname = $1',
      [schema],
    );
    if (rows[0]?.owner !== owner) differ(schema, `schema owner ${rows[0]?.owner} instead of ${owner}`);
  }

  for (const [name, expected] of Object.entries(tables)) {
    const [schema, table] = name.split('.') as [string, string];
    const { rows } = await db.query<{ owner: string; rls: boolean }>(
      `select pg_get_userbyid(c.relowner) as owner, c.relrowsecurity as rls
         from pg_class c where c.oid = to_regclass($1)`,
      [name],
    );
    const actual = rows[0];
    if (!actual) {
      differ(name, 'table missing');
      continue;
    }
    if (actual.owner !== expected.owner) differ(name, `owner ${actual.owner} instead of ${expected.owner}`);
    if (actual.rls !== expected.rls) differ(name, `RLS ${actual.rls ? 'on' : 'off'}`);

    if (expected.columns) {
      const { rows: columns } = await db.query<{
        name: string;
        type: string;
        nullable: boolean;
        default: string | null;
      }>(
        `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, not a.attnotnull as nullable,
                case when a.attgenerated = '' then pg_get_expr(d.adbin, d.adrelid) end as default
           from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
          where a.attrelid = to_regclass($1) and a.attnum > 0 and not a.attisdropped`,
        [name],
      );
      const local = new Map(columns.map((c) => [c.name, c]));
      for (const [column, want] of Object.entries(expected.columns)) {
        const have = local.get(column);
        const subject = `${schema}.${table}.${column}`;
        if (!have) differ(subject, 'column missing');
        else {
          if (have.type !== want.type) differ(subject, `type ${have.type} instead of ${want.type}`);
          if (have.nullable !== want.nullable) differ(subject, `nullable ${have.nullable}`);
          if (have.default !== want.default)
            differ(subject, `default ${have.default} instead of ${want.default}`);
        }
      }
      for (const column of local.keys())
        if (!(column in expected.columns)) differ(`${schema}.${table}.${column}`, 'column not upstream');
    }

    for (const [role, privileges] of Object.entries(expected.privileges ?? {})) {
      for (const privilege of ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRIGGER']) {
        const { rows: granted } = await db.query<{ has: boolean }>(
          'select has_table_privilege($1, to_regclass($2), $3) as has',
          [role, name, privilege],
        );
        if (granted[0]?.has !== privileges.includes(privilege))
          differ(name, `${role} ${granted[0]?.has ? 'has' : 'lacks'} ${privilege}`);
      }
    }

    if (expected.triggers) {
      const { rows: triggers } = await db.query<{ name: string }>(
        'select tgname as name from pg_trigger where tgrelid = to_regclass($1) and not tgisinternal',
        [name],
      );
      const local = triggers.map((t) => t.name);
      for (const trigger of expected.triggers)
        if (!local.includes(trigger)) differ(`${name}.${trigger}`, 'trigger missing');
    }
  }

  for (const [signature, expected] of Object.entries(functions)) {
    const { rows } = await db.query<{ owner: string }>(
      `select pg_get_userbyid(p.proowner) as owner from pg_proc p
        where p.pronamespace::regnamespace::text || '.' || p.proname || '(' ||
              pg_get_function_identity_arguments(p.oid) || ')' = $1`,
      [signature],
    );
    const name = signature.slice(0, signature.indexOf('('));
    if (!rows[0]) differ(name, 'function missing');
    else if (rows[0].owner !== expected.owner)
      differ(name, `owner ${rows[0].owner} instead of ${expected.owner}`);
  }

  for (const [input, output] of extensionExamples) {
    const { rows } = await db.query<{ ext: string }>('select storage.extension($1) as ext', [input]);
    if (rows[0]?.ext !== output) differ('storage.extension', `'${input}' gives '${rows[0]?.ext}'`);
  }
  return found;
}

function knownDifferences(): string {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../README.md'), 'utf8');
  const start = readme.indexOf('## Known differences');
  return start < 0 ? '' : readme.slice(start);
}

describe('the platform schema', () => {
  it('matches hosted in every table, column, owner, RLS flag, grant, trigger and function, except those listed', async () => {
    const listed = knownDifferences();
    const unlisted = (await differences())
      .filter((d) => !listed.includes(`\`${d.subject}\``))
      .map((d) => `${d.subject}: ${d.what}`);
    expect(unlisted).toEqual([]);
  });
});
