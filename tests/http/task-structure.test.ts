// Sub-tasks and links through the production build against the shared test backend: every refusal
// (a key of another workspace, an unknown or malformed key, a self-link, a pair linked twice, a
// parent of another project, a second level) is a 400 or 409 with its message by the field and what
// was typed kept, never a 500, and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NO_SIGN_IN_LIMITS,
  createAppScene,
  postForm,
  startAppServer,
  type AppScene,
  type AppServer,
} from '../support/app-server.ts';
import { backend } from '../support/backend.ts';
import { sql } from '../support/db.ts';

let app: AppServer;
let home: AppScene;
let key: string;
/** A task of another workspace, by a key no project of home has. */
let awayRef: string;

beforeAll(async () => {
  app = await startAppServer(backend(), NO_SIGN_IN_LIMITS);
  let away: AppScene;
  [home, away] = await Promise.all([
    createAppScene(app, backend(), 'structure'),
    createAppScene(app, backend(), 'structure-away'),
  ]);
  key = (home.projectPath.split('/')[4] ?? '').toUpperCase();
  const [zeta] = await sql<{ key: string }>(
    `insert into public.projects (workspace_id, name, key)
     select w.id, 'Zeta', 'ZETA' from public.workspaces w where w.slug = $1 returning key`,
    [away.workspace],
  );
  const [far] = await sql<{ number: number }>(
    `insert into public.tasks (workspace_id, project_id, title)
     select p.workspace_id, p.id, 'Far away' from public.projects p where p.key = 'ZETA'
        and p.workspace_id = (select id from public.workspaces where slug = $1)
     returning number`,
    [away.workspace],
  );
  awayRef = `${zeta?.key}-${far?.number}`;
}, 60_000);

afterAll(async () => {
  await app?.stop();
});

/** A task of home's board (or of `project`), made past the app; its id, key and panel's address. */
async function makeTask(title: string, project?: string) {
  const [task] = await sql<{ id: string; number: number; key: string }>(
    `insert into public.tasks (workspace_id, project_id, title)
     select p.workspace_id, p.id, $2 from public.projects p join public.workspaces w on w.id = p.workspace_id
      where w.slug = $1 and ($3::uuid is null or p.id = $3::uuid)
      order by p.created_at limit 1
     returning id, number, (select key from public.projects where id = project_id)`,
    [home.workspace, title, project ?? null],
  );
  if (!task) throw new Error('no task');
  return { id: task.id, ref: `${task.key}-${task.number}`, panel: `${home.projectPath}/t/${task.number}` };
}

const linkCount = async () =>
  Number((await sql<{ n: string }>('select count(*) as n from public.task_links'))[0]?.n);

describe('links from the task panel', () => {
  it('are added by type and key, and refused plainly, never with a 500', async () => {
    const [a, b] = [await makeTask('Write the brief'), await makeTask('Book the room')];
    const add = (type: string, task: string) =>
      postForm(app, a.panel, { intent: 'add-link', type, task }, home.cookie);
    const before = await linkCount();
    const refusals = [
      {
        type: 'blocks',
        task: awayRef,
        status: 400,
        message: `There is no task ${awayRef} in this workspace.`,
      },
      {
        type: 'blocks',
        task: `${key}-9999`,
        status: 400,
        message: `There is no task ${key}-9999 in this workspace.`,
      },
      { type: 'blocks', task: 'not a key', status: 400, message: 'Enter a task key like WEB-12.' },
      {
        type: 'blocks',
        task: a.ref.toLowerCase(),
        status: 400,
        message: 'A task cannot be linked to itself.',
      },
      { type: 'follows', task: b.ref, status: 400, message: 'Choose how the tasks are linked.' },
    ];
    for (const { type, task, status, message } of refusals) {
      const res = await add(type, task);
      expect(res.status, task).toBe(status);
      const html = await res.text();
      expect(html, task).toContain(message);
      expect(html, task).toContain(`value="${task}"`);
      expect(html, task).toContain('aria-invalid="true"');
    }
    expect(await linkCount()).toBe(before);

    expect((await add('blocked_by', b.ref)).status).toBe(302);
    expect(
      await sql('select kind, from_task_id, to_task_id from public.task_links where to_task_id = $1', [a.id]),
    ).toEqual([{ kind: 'blocks', from_task_id: b.id, to_task_id: a.id }]);
    // The same pair again, either way round and whatever the type.
    const twice = await postForm(
      app,
      b.panel,
      { intent: 'add-link', type: 'relates', task: a.ref },
      home.cookie,
    );
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain('These two tasks are already linked.');
    expect(await linkCount()).toBe(before + 1);
  });

  it('are removed from either task, and a link of other tasks is not there for this one', async () => {
    const [a, b, c] = [await makeTask('One'), await makeTask('Two'), await makeTask('Three')];
    expect(
      (await postForm(app, a.panel, { intent: 'add-link', type: 'relates', task: b.ref }, home.cookie))
        .status,
    ).toBe(302);
    const [row] = await sql<{ id: string }>('select id from public.task_links where from_task_id = $1', [
      a.id,
    ]);
    const elsewhere = await postForm(app, c.panel, { intent: 'remove-link', linkId: row?.id }, home.cookie);
    expect(elsewhere.status).toBe(404);
    expect(
      await postForm(app, c.panel, { intent: 'remove-link', linkId: 'nope' }, home.cookie),
    ).toHaveProperty('status', 404);
    const removed = await postForm(app, b.panel, { intent: 'remove-link', linkId: row?.id }, home.cookie);
    expect(removed.status).toBe(302);
    expect(await sql('select id from public.task_links where id = $1', [row?.id])).toEqual([]);
  });
});

describe('sub-tasks from the task panel', () => {
  it('are added by title under the task, in its project', async () => {
    const parent = await makeTask('Plan the launch');
    const empty = await postForm(app, parent.panel, { intent: 'add-subtask', title: '   ' }, home.cookie);
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('Enter a title.');
    const res = await postForm(
      app,
      parent.panel,
      { intent: 'add-subtask', title: 'Draft the post' },
      home.cookie,
    );
    expect(res.status).toBe(302);
    expect(await sql('select title from public.tasks where parent_id = $1', [parent.id])).toEqual([
      { title: 'Draft the post' },
    ]);
  });

  it('refuse a parent of another project, a second level, and a parent for a task with sub-tasks', async () => {
    const [other] = await sql<{ id: string }>(
      `insert into public.projects (workspace_id, name)
       select id, 'Elsewhere' from public.workspaces where slug = $1 returning id`,
      [home.workspace],
    );
    const foreign = await makeTask('Over there', other?.id);
    const [top, child, loose] = [await makeTask('Top'), await makeTask('Child'), await makeTask('Loose')];
    expect(
      (await postForm(app, child.panel, { intent: 'set-parent', parent: top.ref }, home.cookie)).status,
    ).toBe(302);
    const cases = [
      { task: loose, parent: foreign.ref, message: 'The parent must be a task of the same project.' },
      { task: loose, parent: child.ref, message: 'a sub-task cannot have sub-tasks of its own.' },
      // (The panel of a task with sub-tasks offers no parent field: a forged form.)
      {
        task: top,
        parent: loose.ref,
        message: 'a task with sub-tasks cannot become a sub-task.',
        field: false,
      },
      { task: loose, parent: loose.ref, message: 'A task cannot be its own parent.' },
      { task: loose, parent: awayRef, message: `There is no task ${awayRef} in this workspace.` },
    ];
    for (const { task, parent, message, field } of cases) {
      const res = await postForm(app, task.panel, { intent: 'set-parent', parent }, home.cookie);
      expect(res.status, `${task.ref} under ${parent}`).toBe(400);
      const html = await res.text();
      expect(html, `${task.ref} under ${parent}`).toContain(message);
      if (field !== false) expect(html, `${task.ref} under ${parent}`).toContain(`value="${parent}"`);
    }
    const under = await postForm(
      app,
      child.panel,
      { intent: 'add-subtask', title: 'Grandchild' },
      home.cookie,
    );
    expect(under.status).toBe(400);
    expect(await under.text()).toContain('a sub-task cannot have sub-tasks of its own.');
    expect(
      await sql('select parent_id from public.tasks where id = any ($1) order by title', [
        [top.id, loose.id],
      ]),
    ).toEqual([{ parent_id: null }, { parent_id: null }]);
    expect((await postForm(app, child.panel, { intent: 'clear-parent' }, home.cookie)).status).toBe(302);
    expect(await sql('select parent_id from public.tasks where id = $1', [child.id])).toEqual([
      { parent_id: null },
    ]);
  });
});
