// Importing tasks (SPEC sections 3, 5 and 6): only admins and the owner stage and run an import; a
// staged import is its uploader's alone; public.import_tasks is all or nothing, numbers the tasks on
// from the project's next number and begins each one's history with `imported`; and a project's CSV
// export imported into another project gives the same export back.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseImportFile } from '../../app/utils/import/file.server.ts';
import { asJson, planImport, readProjectSide } from '../../app/utils/import/plan.server.ts';
import { backend } from '../support/backend.ts';
import { sql } from '../support/db.ts';
import { scene, type Person, type Scene } from '../support/scene.ts';

const stage = (
  p: Person,
  s: Scene,
  tasks: unknown[],
  project = s.project,
  extra: Record<string, unknown> = {},
) =>
  p.client
    .from('task_imports')
    .insert({ workspace_id: s.ws, project_id: project, source: 'CSV', payload: { tasks, ...extra } })
    .select('id')
    .single();

async function staged(
  p: Person,
  s: Scene,
  tasks: unknown[],
  project = s.project,
  extra = {},
): Promise<string> {
  const { data, error } = await stage(p, s, tasks, project, extra);
  if (error) throw new Error(`could not stage: ${error.message}`);
  return data.id;
}

const tasksOf = (project: string) =>
  sql<{ number: number; title: string }>(
    'select number, title from public.tasks where project_id = $1 order by number',
    [project],
    { role: 'superuser' },
  );

async function newProject(s: Scene, name: string): Promise<string> {
  const { data, error } = await s.admin.client
    .from('projects')
    .insert({ workspace_id: s.ws, name })
    .select('id')
    .single();
  if (error) throw error;
  return data.id;
}

describe('task imports', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene();
  });

  it('are staged by admins and the owner, not by members, viewers or outsiders', async () => {
    for (const p of [s.admin, s.owner]) expect((await stage(p, s, [{ title: 'x' }])).error).toBeNull();
    for (const p of [s.member, s.viewer, s.outsider])
      expect((await stage(p, s, [{ title: 'x' }])).error?.code).toBe('42501');
  });

  it('are read, run and dropped by their uploader only', async () => {
    const id = await staged(s.admin, s, [{ title: 'Mine' }]);
    for (const p of [s.owner, s.member, s.viewer, s.outsider]) {
      expect((await p.client.from('task_imports').select('id').eq('id', id)).data).toEqual([]);
      expect((await p.client.from('task_imports').delete().eq('id', id).select('id')).data).toEqual([]);
      const run = await p.client.rpc('import_tasks', { import_id: id });
      expect(run.error).not.toBeNull();
    }
    expect(await tasksOf(s.project)).not.toContainEqual(expect.objectContaining({ title: 'Mine' }));
  });

  it('are not run by someone who is no longer an admin: a viewer cannot import', async () => {
    const id = await staged(s.admin, s, [{ title: 'Demoted' }]);
    await sql('update public.workspace_members set role = $3 where workspace_id = $1 and user_id = $2', [
      s.ws,
      s.admin.id,
      'viewer',
    ]);
    try {
      const run = await s.admin.client.rpc('import_tasks', { import_id: id });
      expect(run.error?.code).toBe('42501');
    } finally {
      await sql('update public.workspace_members set role = $3 where workspace_id = $1 and user_id = $2', [
        s.ws,
        s.admin.id,
        'admin',
      ]);
    }
    expect(await tasksOf(s.project)).not.toContainEqual(expect.objectContaining({ title: 'Demoted' }));
  });

  it('import every task with the next numbers, statuses, labels and comments, and say “imported”', async () => {
    const project = await newProject(s, 'Imported');
    const id = await staged(
      s.admin,
      s,
      [
        { title: 'First', status: 'Review', labels: ['Imported label'], comments: ['**Ana** wrote: hi'] },
        {
          title: 'Second',
          status: 'done',
          priority: 'high',
          due_date: '2026-04-01',
          assignee_id: s.member.id,
        },
      ],
      project,
      {
        statuses: [{ name: 'Review', category: 'started' }],
        labels: [{ name: 'Imported label', color: 'teal' }],
      },
    );
    const run = await s.admin.client.rpc('import_tasks', { import_id: id });
    expect(run.error).toBeNull();
    expect(run.data).toEqual([{ created: 2, first_number: 1, last_number: 2 }]);
    const rows = await sql<Record<string, unknown>>(
      `select t.number, t.title, s.name as status, t.priority::text, t.due_date::text, t.assignee_id,
              (select array_agg(l.name) from public.task_labels tl join public.labels l on l.id = tl.label_id
                where tl.task_id = t.id) as labels,
              (select array_agg(c.body) from public.comments c where c.task_id = t.id) as comments,
              (select array_agg(h.kind || ':' || coalesce(h.data ->> 'source', '')) from public.task_history h
                where h.task_id = t.id and h.kind in ('created', 'imported')) as began
         from public.tasks t join public.project_statuses s on s.id = t.status_id
        where t.project_id = $1 order by t.number`,
      [project],
      { role: 'superuser' },
    );
    expect(rows).toEqual([
      expect.objectContaining({
        number: 1,
        title: 'First',
        status: 'Review',
        labels: ['Imported label'],
        comments: ['**Ana** wrote: hi'],
        began: ['imported:CSV'],
      }),
      expect.objectContaining({
        number: 2,
        title: 'Second',
        status: 'Done',
        priority: 'high',
        due_date: '2026-04-01',
        assignee_id: s.member.id,
        began: ['imported:CSV'],
      }),
    ]);
    // Done, and gone from the stage.
    expect((await s.admin.client.from('task_imports').select('id').eq('id', id)).data).toEqual([]);
  });

  it('notify nobody of an imported comment that names someone, and make nobody watch', async () => {
    const project = await newProject(s, 'Imported talk');
    const [member] = await sql<{ name: string }>(
      'select display_name as name from public.profiles where id = $1',
      [s.member.id],
      { role: 'superuser' },
    );
    const mention = `@${member!.name.split(' ')[0]} can you look?`;
    const id = await staged(s.admin, s, [{ title: 'Talked about', comments: [mention] }], project);
    expect((await s.admin.client.rpc('import_tasks', { import_id: id })).error).toBeNull();
    const [after] = await sql<{ comments: number; told: number; watched: number }>(
      `select (select count(*)::int from public.comments c join public.tasks t on t.id = c.task_id
                where t.project_id = $1) as comments,
              (select count(*)::int from public.notifications n join public.tasks t on t.id = n.task_id
                where t.project_id = $1) as told,
              (select count(*)::int from public.task_watchers w join public.tasks t on t.id = w.task_id
                where t.project_id = $1) as watched`,
      [project],
      { role: 'superuser' },
    );
    expect(after).toEqual({ comments: 1, told: 0, watched: 0 });
    // The same words written as a comment afterwards do tell them: the mention is a real one.
    const [task] = await sql<{ id: string }>('select id from public.tasks where project_id = $1', [project], {
      role: 'superuser',
    });
    const written = await s.admin.client
      .from('comments')
      .insert({ workspace_id: s.ws, task_id: task!.id, body: mention });
    expect(written.error).toBeNull();
    const told = await sql<{ recipient_id: string; kind: string }>(
      'select recipient_id, kind from public.notifications where task_id = $1',
      [task!.id],
      { role: 'superuser' },
    );
    expect(told).toEqual([{ recipient_id: s.member.id, kind: 'mentioned' }]);
  });

  it('left at the preview for a day are purged by purge-trash; younger ones stay', async () => {
    const old = await staged(s.admin, s, [{ title: 'Abandoned' }]);
    const young = await staged(s.admin, s, [{ title: 'Still deciding' }]);
    await sql(
      "update public.task_imports set created_at = now() - interval '25 hours' where id = $1",
      [old],
      {
        role: 'superuser',
      },
    );
    // Only the service role purges.
    expect((await s.owner.client.rpc('purge_stale_imports', {})).error?.code).toBe('42501');
    const { apiUrl, serviceRoleKey } = backend();
    const res = await fetch(`${apiUrl}/functions/v1/purge-trash`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${serviceRoleKey}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { imports: number }).imports).toBeGreaterThanOrEqual(1);
    const left = await sql<{ id: string }>(
      'select id from public.task_imports where id = any ($1) order by created_at',
      [[old, young]],
      { role: 'superuser' },
    );
    expect(left).toEqual([{ id: young }]);
  });

  it('import all or nothing: a failing task undoes the tasks, statuses and labels before it', async () => {
    const project = await newProject(s, 'Atomic');
    const id = await staged(
      s.admin,
      s,
      [{ title: 'One' }, { title: 'Two' }, { ref: 'Line 4', title: 'Three', priority: 'soon' }],
      project,
      {
        statuses: [{ name: 'Never made', category: 'unstarted' }],
        labels: [{ name: 'Never made', color: 'red' }],
      },
    );
    const run = await s.admin.client.rpc('import_tasks', { import_id: id });
    expect(run.error?.message).toMatch(/^Task 3 \(Line 4\): invalid input value for enum/);
    expect(await tasksOf(project)).toEqual([]);
    const leftovers = await sql(
      `select 1 from public.project_statuses where project_id = $1 and name = 'Never made'
       union all select 1 from public.labels where workspace_id = $2 and name = 'Never made'`,
      [project, s.ws],
      { role: 'superuser' },
    );
    expect(leftovers).toEqual([]);
    // The numbers were not spent either: a task made now is the project's first.
    const { data } = await s.member.client
      .from('tasks')
      .insert({ workspace_id: s.ws, project_id: project, title: 'After' })
      .select('number')
      .single();
    expect(data?.number).toBe(1);
  });
  it('refuse a row whose due date is no date or whose assignee is no person, naming it', async () => {
    const project = await newProject(s, 'Checked');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: 'Leap', due_date: '2026-02-30' }, 'Task 2 (Leap): the due date is not a date'],
      [{ title: 'Words', due_date: 'next week' }, 'Task 2 (Words): the due date is not a date'],
      [{ title: 'Nobody', assignee_id: 'ana@example.test' }, 'Task 2 (Nobody): the assignee is not a person'],
    ];
    for (const [row, message] of cases) {
      const id = await staged(s.admin, s, [{ title: 'Fine', due_date: '2026-02-28' }, row], project);
      const run = await s.admin.client.rpc('import_tasks', { import_id: id });
      expect(run.error?.message).toBe(message);
    }
    expect(await tasksOf(project)).toEqual([]);
  });

  it('import 5,000 tasks, the most a file holds, in one call', { timeout: 60_000 }, async () => {
    const project = await newProject(s, 'Large');
    const tasks = Array.from({ length: 5000 }, (_, i) => ({ title: `Task ${i + 1}`, labels: ['Bulk'] }));
    const id = await staged(s.admin, s, tasks, project, { labels: [{ name: 'Bulk', color: 'gray' }] });
    const started = Date.now();
    const run = await s.admin.client.rpc('import_tasks', { import_id: id });
    console.info(`import_tasks: 5,000 tasks in ${Date.now() - started} ms`);
    expect(run.error).toBeNull();
    expect(run.data).toEqual([{ created: 5000, first_number: 1, last_number: 5000 }]);
    // It has 30 s of its own, not the API's 8 s: PostgREST applies a function's statement_timeout to the
    // request (a busy machine once took 8 s over this import).
    const [config] = await sql<{ settings: string[] }>(
      `select proconfig as settings from pg_proc where oid = 'public.import_tasks(uuid)'::regprocedure`,
    );
    expect(config?.settings).toContain('statement_timeout=30s');
    // The activity log has each task's creation, and each task's history its import and its label
    // (written for the statement at once); the import made nobody watch anything.
    const [logged] = await sql<{ created: number; watched: number; imported: number; labelled: number }>(
      `select (select count(*)::int from public.activity a where a.project_id = $1 and a.kind = 'task_created'
                 and a.actor_id = $2) as created,
              (select count(*)::int from public.task_watchers w
                 join public.tasks t on t.id = w.task_id where t.project_id = $1) as watched,
              (select count(*)::int from public.task_history h join public.tasks t on t.id = h.task_id
                where t.project_id = $1 and h.kind = 'imported' and h.actor_id = $2) as imported,
              (select count(*)::int from public.task_history h join public.tasks t on t.id = h.task_id
                where t.project_id = $1 and h.kind = 'label_added' and h.data ->> 'name' = 'Bulk') as labelled`,
      [project, s.admin.id],
      { role: 'superuser' },
    );
    expect(logged).toEqual({ created: 5000, watched: 0, imported: 5000, labelled: 5000 });
    // The import spent its numbers: the next task made by hand is the 5,001st.
    const { data: next } = await s.member.client
      .from('tasks')
      .insert({ workspace_id: s.ws, project_id: project, title: 'After the import' })
      .select('number')
      .single();
    expect(next?.number).toBe(5001);
  });
});

describe('export → import', () => {
  it('gives the same export back from another project', async () => {
    const s = await scene();
    const source = s.project;
    await s.admin.client.from('labels').insert([
      { workspace_id: s.ws, name: 'bug', color: 'red' },
      { workspace_id: s.ws, name: 'Design', color: 'blue' },
    ]);
    const { data: labels } = await s.admin.client.from('labels').select('id, name').eq('workspace_id', s.ws);
    const samples = [
      {
        title: '=HYPERLINK("http://evil.test","x")',
        description: '- [ ] one\n- [x] two',
        priority: 'urgent',
      },
      {
        title: "'=already quoted",
        description: 'a, b and "c"\nline two',
        priority: 'low',
        due_date: '2026-05-31',
      },
      { title: '@mention-like', description: '', priority: 'medium', assignee_id: s.member.id },
    ];
    for (const sample of samples) {
      const { data, error } = await s.member.client
        .from('tasks')
        .insert({ workspace_id: s.ws, project_id: source, ...sample })
        .select('id')
        .single();
      if (error) throw error;
      await s.member.client
        .from('task_labels')
        .insert((labels ?? []).map((l) => ({ task_id: data.id, label_id: l.id, workspace_id: s.ws })));
    }
    const exportOf = async (project: string) => {
      const token = (await s.admin.client.auth.getSession()).data.session?.access_token;
      const res = await fetch(`${backend().apiUrl}/functions/v1/export-tasks?project=${project}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
      return new Uint8Array(await res.arrayBuffer());
    };

    const exported = await exportOf(source);
    const parsed = parseImportFile(exported);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.file.problems).toEqual([]);
    const target = await newProject(s, 'Copy');
    const read = await readProjectSide(s.admin.client, { id: target, workspaceId: s.ws }, parsed.file);
    if ('error' in read) throw new Error(read.error.message);
    const payload = planImport(parsed.file, 'launch-tasks.csv', read.side);
    const { data: stagedRow, error } = await s.admin.client
      .from('task_imports')
      .insert({ workspace_id: s.ws, project_id: target, source: 'CSV', payload: asJson(payload) })
      .select('id')
      .single();
    if (error) throw error;
    const run = await s.admin.client.rpc('import_tasks', { import_id: stagedRow.id });
    expect(run.error).toBeNull();

    // Every column but the task's key, number and timestamps, which the new project gives anew.
    const again = parseImportFile(await exportOf(target));
    if (!again.ok) throw new Error(again.message);
    const strip = (rows: typeof parsed.file.rows) => rows.map(({ where: _where, ...row }) => row);
    expect(strip(again.file.rows)).toEqual(strip(parsed.file.rows));
    expect(strip(parsed.file.rows).map((r) => r.title)).toEqual([
      'Ship it',
      '=HYPERLINK("http://evil.test","x")',
      "'=already quoted",
      '@mention-like',
    ]);
  });
});
