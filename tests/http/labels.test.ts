// Labels through the production build against the shared test backend: the labels page answers a
// broken rule with its message next to the field and what was typed kept, and the task panel never
// puts a label of another workspace on a task, nor answers a forged one with a 500.
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
let away: AppScene;

beforeAll(async () => {
  app = await startAppServer(backend(), NO_SIGN_IN_LIMITS);
  [home, away] = await Promise.all([
    createAppScene(app, backend(), 'labels'),
    createAppScene(app, backend(), 'labels-away'),
  ]);
}, 60_000);

afterAll(async () => {
  await app?.stop();
});

const labelsPage = (scene: AppScene) => `/w/${scene.workspace}/labels`;

/** Makes a label through the page, as an admin's form does; its id. */
async function makeLabel(scene: AppScene, name: string, color = 'red'): Promise<string> {
  const res = await postForm(app, labelsPage(scene), { intent: 'create', name, color }, scene.cookie);
  expect(res.status, await res.clone().text()).toBe(302);
  const [row] = await sql<{ id: string }>(
    'select l.id from public.labels l join public.workspaces w on w.id = l.workspace_id where w.slug = $1 and l.name = $2',
    [scene.workspace, name.trim()],
  );
  if (!row) throw new Error(`no label ${name}`);
  return row.id;
}

/** A task on the scene's board, made past the app (its columns are not what is tested here); its panel's address. */
async function makeTask(scene: AppScene, title: string): Promise<{ id: string; panel: string }> {
  const [task] = await sql<{ id: string; number: number }>(
    `insert into public.tasks (workspace_id, project_id, title)
     select p.workspace_id, p.id, $2 from public.projects p join public.workspaces w on w.id = p.workspace_id
      where w.slug = $1
     returning id, number`,
    [scene.workspace, title],
  );
  if (!task) throw new Error('no task');
  return { id: task.id, panel: `${scene.projectPath}/t/${task.number}` };
}

const labelsOn = async (taskId: string) =>
  (
    await sql<{ label_id: string }>('select label_id from public.task_labels where task_id = $1', [taskId])
  ).map((r) => r.label_id);

describe('the labels page', () => {
  it('refuses a broken name with its message by the field, keeping what was typed', async () => {
    await makeLabel(home, '  Customer  ');
    const cases = [
      { name: '', status: 400, message: 'Enter a label name.' },
      { name: 'x'.repeat(31), status: 400, message: 'Use at most 30 characters.' },
      { name: 'two\tparts', status: 400, message: 'Remove the control characters' },
      // The database's unique index speaks for a twin in another letter case.
      { name: 'CUSTOMER', status: 409, message: 'A label with this name already exists. Choose another.' },
    ];
    for (const { name, status, message } of cases) {
      const res = await postForm(
        app,
        labelsPage(home),
        { intent: 'create', name, color: 'teal' },
        home.cookie,
      );
      expect(res.status, name).toBe(status);
      const html = await res.text();
      expect(html, name).toContain(message);
      expect(html, name).toContain('aria-invalid="true"');
      if (name) expect(html, name).toContain(`value="${name}"`);
    }
    const colour = await postForm(
      app,
      labelsPage(home),
      { intent: 'create', name: 'Odd', color: 'black' },
      home.cookie,
    );
    expect(colour.status).toBe(400);
    expect(await colour.text()).toContain('Choose a colour from the list.');
  });

  it('renames and recolours a label, and refuses a rename onto another’s name', async () => {
    const id = await makeLabel(home, 'Design', 'blue');
    await makeLabel(home, 'Research', 'green');
    const renamed = await postForm(
      app,
      labelsPage(home),
      { intent: 'update', id, name: 'UX', color: 'purple' },
      home.cookie,
    );
    expect(renamed.status).toBe(302);
    expect(await sql('select name, color from public.labels where id = $1', [id])).toEqual([
      { name: 'UX', color: 'purple' },
    ]);
    const clash = await postForm(
      app,
      labelsPage(home),
      { intent: 'update', id, name: 'research', color: 'purple' },
      home.cookie,
    );
    expect(clash.status).toBe(409);
    expect(await clash.text()).toContain('A label with this name already exists.');
  });

  it('says plainly when the workspace has 200 labels', async () => {
    const full = await createAppScene(app, backend(), 'labels-full');
    await sql(
      `insert into public.labels (workspace_id, name, color)
       select w.id, 'L' || n, 'gray' from public.workspaces w, generate_series(1, 200) n where w.slug = $1`,
      [full.workspace],
    );
    const res = await postForm(
      app,
      labelsPage(full),
      { intent: 'create', name: 'One more', color: 'red' },
      full.cookie,
    );
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('A workspace can have at most 200 labels. Delete one you no longer use first.');
    expect(html).toContain('value="One more"');
  });

  it('deletes a label, which comes off every task it was on', async () => {
    const id = await makeLabel(home, 'Short-lived');
    const task = await makeTask(home, 'Labelled briefly');
    expect((await postForm(app, task.panel, { intent: 'add-label', labelId: id }, home.cookie)).status).toBe(
      200,
    );
    const deleted = await postForm(app, labelsPage(home), { intent: 'delete', id }, home.cookie);
    expect(deleted.status).toBe(302);
    expect(await sql('select 1 from public.labels where id = $1', [id])).toEqual([]);
    expect(await labelsOn(task.id)).toEqual([]);
  });

  it('does not touch another workspace’s label, and answers a malformed id with a 404', async () => {
    const theirs = await makeLabel(away, 'Theirs');
    for (const fields of [
      { intent: 'update', id: theirs, name: 'Mine now', color: 'red' },
      { intent: 'delete', id: theirs },
      { intent: 'delete', id: 'not-a-uuid' },
    ]) {
      const res = await postForm(app, labelsPage(home), fields, home.cookie);
      expect(res.status, JSON.stringify(fields)).toBe(404);
    }
    expect(await sql('select name from public.labels where id = $1', [theirs])).toEqual([{ name: 'Theirs' }]);
  });
});

describe('labels on a task, through its panel', () => {
  it('puts labels on and takes them off, one at a time or all at once', async () => {
    const [bug, ux] = [await makeLabel(home, 'Bug'), await makeLabel(home, 'Frontend')];
    const task = await makeTask(home, 'Label me');
    const on = await postForm(app, task.panel, { intent: 'add-label', labelId: bug }, home.cookie);
    expect(on.status).toBe(200);
    // Twice is once.
    expect((await postForm(app, task.panel, { intent: 'add-label', labelId: bug }, home.cookie)).status).toBe(
      200,
    );
    expect(await labelsOn(task.id)).toEqual([bug]);
    const set = await postForm(app, task.panel, { intent: 'labels', label: ux }, home.cookie);
    expect(set.status).toBe(302);
    expect(await labelsOn(task.id)).toEqual([ux]);
    expect(
      (await postForm(app, task.panel, { intent: 'remove-label', labelId: ux }, home.cookie)).status,
    ).toBe(200);
    expect(await labelsOn(task.id)).toEqual([]);
    expect(
      (await postForm(app, task.panel, { intent: 'remove-label', labelId: ux }, home.cookie)).status,
    ).toBe(404);
  });

  it('refuses a label of another workspace with a 400, and a malformed id with a 400 or 404', async () => {
    const theirs = await makeLabel(away, 'Not yours');
    const task = await makeTask(home, 'Keep me clean');
    const forged = [
      { fields: { intent: 'add-label', labelId: theirs }, status: 400 },
      { fields: { intent: 'labels', label: theirs }, status: 400 },
      { fields: { intent: 'labels', label: 'not-a-uuid' }, status: 400 },
      { fields: { intent: 'add-label', labelId: 'not-a-uuid' }, status: 404 },
    ];
    for (const { fields, status } of forged) {
      const res = await postForm(app, task.panel, fields, home.cookie);
      expect(res.status, JSON.stringify(fields)).toBe(status);
    }
    expect(await labelsOn(task.id)).toEqual([]);
  });
});
