// Each project's board is kept in private.board_cache (migration 20261125090100) and board_page
// answers a board at its plain address from it. Kept boards must never be stale: after every kind of
// change the board shows, made the way the app makes it, the kept board must equal one built afresh
// by private.board_content; and two transactions changing one board at once must leave both changes
// in it.
import { beforeAll, describe, expect, it } from 'vitest';
import { superuserDb, useDb, waitsOnLock } from '../support/db.ts';
import {
  addMember,
  claimsOf,
  defaultStatuses,
  person,
  scene,
  type DefaultStatuses,
  type Scene,
} from '../support/scene.ts';

const db = useDb('superuser');
let cast: Scene;
let slug: string;
let key: string;
let statuses: DefaultStatuses;

beforeAll(async () => {
  cast = await scene();
  const { rows } = await db().query<{ slug: string; key: string }>(
    `select w.slug, p.key from public.projects p join public.workspaces w on w.id = p.workspace_id where p.id = $1`,
    [cast.project],
  );
  slug = rows[0]?.slug ?? '';
  key = rows[0]?.key ?? '';
  statuses = await defaultStatuses(cast.project);
});

/** The kept board of a project, and the same board built now. */
async function keptAndFresh(project: string) {
  const { rows } = await db().query<{ kept: unknown; fresh: unknown }>(
    `select (select json_build_object('project', c.project, 'people', c.people, 'columns', c.columns)
               from private.board_cache c where c.project_id = p.id) as kept,
            (select json_build_object('project', b.project, 'people', b.people, 'columns', b.columns)
               from private.board_content(p.workspace_id, p.id, '{}', '{}') b) as fresh
       from public.projects p where p.id = $1`,
    [project],
  );
  return rows[0] ?? { kept: undefined, fresh: undefined };
}

async function expectKeptIsFresh(project: string, after: string) {
  const { kept, fresh } = await keptAndFresh(project);
  expect(kept, `the kept board after ${after}`).not.toBeNull();
  expect(kept, `the kept board after ${after}`).toEqual(fresh);
}

type Board = {
  project: { name: string } | null;
  people: Array<{ display_name: string }>;
  columns: Array<{
    name: string;
    count: number;
    tasks: Array<{
      title: string;
      comments: number;
      attachments: number;
      labels: Array<{ id: string; name: string; color: string }>;
      subtasks: { done: number; total: number };
      blocked: boolean;
    }>;
  }>;
};

/** board_page at the board's plain address, as the member asks for it through the API. */
async function boardAsMember(): Promise<Board> {
  const { data, error } = await cast.member.client.rpc('board_page', {
    workspace_slug: slug,
    project_key: key.toLowerCase(),
    shown: {},
    filters: { today: '2026-11-25' },
  });
  if (error) throw error;
  return data as Board;
}

const cards = (board: Board) => board.columns.flatMap((column) => column.tasks);

describe('the kept board', () => {
  it('is read by board_page at the plain address, and built afresh for a filter or a window', async () => {
    await expectKeptIsFresh(cast.project, 'the scene was made');
    await db().query('begin');
    try {
      // A mark only the kept board carries, seen by the member's own call in this transaction.
      await db().query(
        `update private.board_cache set project = json_build_object('id', $1::uuid, 'name', 'Kept') where project_id = $1`,
        [cast.project],
      );
      const ask = async (shown: string, filters: string) => {
        await db().query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(member)]);
        const { rows } = await db().query<{ answer: Board }>(
          'select public.board_page($1, $2, $3::jsonb, $4::jsonb) as answer',
          [slug, key, shown, filters],
        );
        return rows[0]?.answer.project?.name;
      };
      const member = await claimsOf(cast.member);
      await db().query('set local role authenticated');
      expect(await ask('{}', '{"today":"2026-11-25"}')).toBe('Kept');
      expect(await ask('{}', '{"q":"  "}')).toBe('Kept');
      expect(await ask(`{"${statuses.todo}":"100"}`, '{}')).not.toBe('Kept');
      expect(await ask('{}', '{"priority":"high"}')).not.toBe('Kept');
      expect(await ask('{}', '{"label":["bug"]}')).not.toBe('Kept');
      expect(await ask('{}', '{"label":[]}')).toBe('Kept');
    } finally {
      await db().query('rollback');
    }
  });

  it('follows every change the board shows', async () => {
    const member = cast.member.client;
    const admin = cast.admin.client;

    const created = await member
      .from('tasks')
      .insert({ workspace_id: cast.ws, project_id: cast.project, title: 'Book the venue', priority: 'high' })
      .select('id')
      .single();
    if (created.error) throw created.error;
    const task = created.data.id as string;
    await expectKeptIsFresh(cast.project, 'a task was made');
    expect(cards(await boardAsMember()).map((c) => c.title)).toContain('Book the venue');

    const edits: Array<[string, Record<string, unknown>]> = [
      ['a title changed', { title: 'Book the big venue' }],
      ['a priority changed', { priority: 'urgent' }],
      ['a due date set', { due_date: '2026-12-01' }],
      ['an assignee set', { assignee_id: cast.member.id }],
    ];
    for (const [what, change] of edits) {
      const { error } = await member.from('tasks').update(change).eq('id', task);
      if (error) throw error;
      await expectKeptIsFresh(cast.project, what);
    }
    const moved = await member.rpc('move_task', { task_id: task, status_id: statuses.done });
    if (moved.error) throw moved.error;
    await expectKeptIsFresh(cast.project, 'a task moved');

    // The columns themselves: a status added, renamed, reordered and deleted (its tasks moved).
    const added = await admin
      .from('project_statuses')
      .insert({ workspace_id: cast.ws, project_id: cast.project, name: 'In review', category: 'started' })
      .select('id')
      .single();
    if (added.error) throw added.error;
    await expectKeptIsFresh(cast.project, 'a status was added');
    const review = added.data.id as string;
    const movedIn = await member.rpc('move_task', { task_id: task, status_id: review });
    if (movedIn.error) throw movedIn.error;
    const renamedStatus = await admin.from('project_statuses').update({ name: 'Review' }).eq('id', review);
    if (renamedStatus.error) throw renamedStatus.error;
    await expectKeptIsFresh(cast.project, 'a status was renamed');
    expect((await boardAsMember()).columns.map((c) => c.name)).toContain('Review');
    const reordered = await admin.rpc('move_project_status', { status_id: review, to_index: 0 });
    if (reordered.error) throw reordered.error;
    await expectKeptIsFresh(cast.project, 'a status was reordered');
    expect((await boardAsMember()).columns[0]?.name).toBe('Review');
    const gone = await admin.rpc('delete_project_status', { status_id: review, move_to: statuses.done });
    if (gone.error) throw gone.error;
    await expectKeptIsFresh(cast.project, 'a status was deleted, its tasks moved');
    expect((await boardAsMember()).columns.map((c) => c.name)).not.toContain('Review');

    const comment = await member
      .from('comments')
      .insert({ workspace_id: cast.ws, task_id: task, body: 'Booked' })
      .select('id')
      .single();
    if (comment.error) throw comment.error;
    await expectKeptIsFresh(cast.project, 'a comment was written');
    expect(cards(await boardAsMember()).find((c) => c.title === 'Book the big venue')?.comments).toBe(1);
    const uncommented = await member
      .from('comments')
      .delete()
      .eq('id', comment.data.id as string);
    if (uncommented.error) throw uncommented.error;
    await expectKeptIsFresh(cast.project, 'a comment was deleted');

    // An attachment's row, as the upload flow writes it after the file is stored.
    await db().query(
      `insert into public.attachments (workspace_id, task_id, path, name, size, content_type)
       values ($1, $2, $3, 'plan.txt', 4, 'text/plain')`,
      [cast.ws, task, `${cast.ws}/${task}/plan.txt`],
    );
    await expectKeptIsFresh(cast.project, 'a file was attached');
    expect(cards(await boardAsMember()).find((c) => c.title === 'Book the big venue')?.attachments).toBe(1);
    await db().query('delete from public.attachments where task_id = $1', [task]);
    await expectKeptIsFresh(cast.project, 'a file was removed');

    const renamed = await member
      .from('profiles')
      .update({ display_name: 'Morgan Renamed' })
      .eq('id', cast.member.id);
    if (renamed.error) throw renamed.error;
    await expectKeptIsFresh(cast.project, 'a member renamed themselves');
    // The avatar flow stores the picture first, then points the profile at it.
    const pictured = await member
      .from('profiles')
      .update({ avatar_path: `${cast.member.id}/avatar.png` })
      .eq('id', cast.member.id);
    if (pictured.error) throw pictured.error;
    await expectKeptIsFresh(cast.project, 'a member set a picture');
    expect((await boardAsMember()).people.map((p) => p.display_name)).toContain('Morgan Renamed');

    const newcomer = await person('newcomer');
    await addMember(cast.ws, newcomer.id, 'member');
    await expectKeptIsFresh(cast.project, 'someone joined');
    await db().query('delete from public.workspace_members where workspace_id = $1 and user_id = $2', [
      cast.ws,
      newcomer.id,
    ]);
    await expectKeptIsFresh(cast.project, 'someone left');

    const project = await admin
      .from('projects')
      .update({ name: 'Launch party', description: 'Friday, on the roof' })
      .eq('id', cast.project);
    if (project.error) throw project.error;
    await expectKeptIsFresh(cast.project, 'the project was renamed');
    expect((await boardAsMember()).project?.name).toBe('Launch party');

    const trashed = await cast.admin.client.rpc('trash_task', { task_id: task });
    if (trashed.error) throw trashed.error;
    await expectKeptIsFresh(cast.project, 'a task went to the trash');
    expect(cards(await boardAsMember()).map((c) => c.title)).not.toContain('Book the big venue');
    const restored = await cast.admin.client.rpc('restore_task', { task_id: task });
    if (restored.error) throw restored.error;
    await expectKeptIsFresh(cast.project, 'a task came back from the trash');
    expect(cards(await boardAsMember()).map((c) => c.title)).toContain('Book the big venue');

    // A task leaves the board for good when the trash is purged, past the API.
    await db().query('delete from public.tasks where id = $1', [task]);
    await expectKeptIsFresh(cast.project, 'a task was deleted');
    expect(cards(await boardAsMember()).map((c) => c.title)).not.toContain('Book the big venue');

    const second = await admin
      .from('projects')
      .insert({ workspace_id: cast.ws, name: 'Hiring' })
      .select('id')
      .single();
    if (second.error) throw second.error;
    await expectKeptIsFresh(second.data.id as string, 'a project was made');

    const archived = await admin
      .from('projects')
      .update({ archived_at: new Date().toISOString() })
      .eq('id', second.data.id as string);
    if (archived.error) throw archived.error;
    await expectKeptIsFresh(second.data.id as string, 'a project was archived');
    const { rows } = await db().query<{ archived: boolean }>(
      `select (project ->> 'archived_at') is not null as archived from private.board_cache where project_id = $1`,
      [second.data.id],
    );
    expect(rows[0]?.archived).toBe(true);
  });

  it('follows labels put on and taken off, renamed, recoloured and deleted', async () => {
    const labelOf = async () => {
      const card = cards(await boardAsMember()).find((c) => c.title === 'Ship it');
      if (!card) throw new Error('the scene task is not on the board');
      return card;
    };
    const made = await cast.admin.client
      .from('labels')
      .insert({ workspace_id: cast.ws, name: 'Bug', color: 'red' })
      .select('id')
      .single();
    if (made.error) throw made.error;
    const label = made.data.id as string;
    await expectKeptIsFresh(cast.project, 'a label was made');

    const put = await cast.member.client
      .from('task_labels')
      .insert({ workspace_id: cast.ws, task_id: cast.task, label_id: label });
    if (put.error) throw put.error;
    await expectKeptIsFresh(cast.project, 'a label was put on a task');
    expect((await labelOf()).labels).toEqual([{ id: label, name: 'Bug', color: 'red' }]);

    const renamed = await cast.admin.client.from('labels').update({ name: 'Defect' }).eq('id', label);
    if (renamed.error) throw renamed.error;
    await expectKeptIsFresh(cast.project, 'a label was renamed');
    const recoloured = await cast.admin.client.from('labels').update({ color: 'orange' }).eq('id', label);
    if (recoloured.error) throw recoloured.error;
    await expectKeptIsFresh(cast.project, 'a label was recoloured');
    expect((await labelOf()).labels).toEqual([{ id: label, name: 'Defect', color: 'orange' }]);

    const off = await cast.member.client.rpc('set_task_labels', { task_id: cast.task, label_ids: [] });
    if (off.error) throw off.error;
    await expectKeptIsFresh(cast.project, 'a label was taken off a task');
    expect((await labelOf()).labels).toEqual([]);

    const again = await cast.member.client.rpc('set_task_labels', { task_id: cast.task, label_ids: [label] });
    if (again.error) throw again.error;
    await expectKeptIsFresh(cast.project, 'a label was put back on a task');
    const deleted = await cast.admin.client.from('labels').delete().eq('id', label);
    if (deleted.error) throw deleted.error;
    await expectKeptIsFresh(cast.project, 'a label was deleted');
    expect((await labelOf()).labels).toEqual([]);
  });

  it('follows sub-tasks and blocking links, from this project and from others', async () => {
    const member = cast.member.client;
    const cardOf = async (title: string) => {
      const card = cards(await boardAsMember()).find((c) => c.title === title);
      if (!card) throw new Error(`${title} is not on the board`);
      return card;
    };
    const made = async (title: string, fields: Record<string, unknown> = {}) => {
      const { data, error } = await member
        .from('tasks')
        .insert({ workspace_id: cast.ws, project_id: cast.project, title, ...fields })
        .select('id')
        .single();
      if (error) throw error;
      return data.id as string;
    };
    const ok = async (request: PromiseLike<{ error: unknown }>) => {
      const { error } = await request;
      if (error) throw error;
    };

    const parent = await made('Plan the launch');
    const first = await made('Write the post', { parent_id: parent });
    await expectKeptIsFresh(cast.project, 'a sub-task was made');
    const loose = await made('Pick a date');
    await ok(member.from('tasks').update({ parent_id: parent }).eq('id', loose));
    await expectKeptIsFresh(cast.project, 'a task got a parent');
    expect((await cardOf('Plan the launch')).subtasks).toEqual({ done: 0, total: 2 });
    await ok(member.from('tasks').update({ status_id: statuses.done }).eq('id', first));
    await expectKeptIsFresh(cast.project, "a sub-task's status changed");
    expect((await cardOf('Plan the launch')).subtasks).toEqual({ done: 1, total: 2 });
    await ok(member.from('tasks').update({ parent_id: null }).eq('id', loose));
    await expectKeptIsFresh(cast.project, 'a task lost its parent');
    expect((await cardOf('Plan the launch')).subtasks).toEqual({ done: 1, total: 1 });

    // Blocked by a task of another project: its status and the link change this board.
    const elsewhere = await cast.admin.client
      .from('projects')
      .insert({ workspace_id: cast.ws, name: 'Elsewhere' })
      .select('id')
      .single();
    if (elsewhere.error) throw elsewhere.error;
    const blocker = await member
      .from('tasks')
      .insert({ workspace_id: cast.ws, project_id: elsewhere.data.id, title: 'Get approval' })
      .select('id')
      .single();
    if (blocker.error) throw blocker.error;
    const other = await defaultStatuses(elsewhere.data.id as string);
    await ok(
      member
        .from('task_links')
        .insert({ workspace_id: cast.ws, from_task_id: blocker.data.id, to_task_id: parent, kind: 'blocks' }),
    );
    await expectKeptIsFresh(cast.project, 'a blocking link was made');
    expect((await cardOf('Plan the launch')).blocked).toBe(true);
    await ok(member.from('tasks').update({ status_id: other.done }).eq('id', blocker.data.id));
    await expectKeptIsFresh(cast.project, "the blocker's status changed in another project");
    expect((await cardOf('Plan the launch')).blocked).toBe(false);
    await ok(member.from('tasks').update({ status_id: other.in_progress }).eq('id', blocker.data.id));
    await expectKeptIsFresh(cast.project, "the blocker's status changed back");
    expect((await cardOf('Plan the launch')).blocked).toBe(true);
    await ok(
      cast.admin.client.from('project_statuses').update({ category: 'canceled' }).eq('id', other.in_progress),
    );
    await expectKeptIsFresh(cast.project, "the blocker's status changed category in another project");
    expect((await cardOf('Plan the launch')).blocked).toBe(false);
    await ok(
      cast.admin.client.from('project_statuses').update({ category: 'started' }).eq('id', other.in_progress),
    );
    expect((await cardOf('Plan the launch')).blocked).toBe(true);
    await ok(member.from('task_links').delete().eq('to_task_id', parent));
    await expectKeptIsFresh(cast.project, 'a blocking link was removed');
    expect((await cardOf('Plan the launch')).blocked).toBe(false);
    await db().query('delete from public.tasks where id = $1', [parent]);
    await expectKeptIsFresh(cast.project, 'a parent was purged');
  });

  it('keeps both of two changes made at once', async () => {
    const titles = ['First of two', 'Second of two'];
    const ids: string[] = [];
    for (const title of titles) {
      const { data, error } = await cast.member.client
        .from('tasks')
        .insert({ workspace_id: cast.ws, project_id: cast.project, title: `${title} (draft)` })
        .select('id')
        .single();
      if (error) throw error;
      ids.push(data.id as string);
    }
    const [one, two] = [superuserDb(), superuserDb()];
    await Promise.all([one.connect(), two.connect()]);
    try {
      const twoPid = (await two.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
      await one.query('begin');
      await two.query('begin');
      await one.query('update public.tasks set title = $1 where id = $2', [titles[0], ids[0]]);
      // The second rebuild waits for the first transaction to end, then builds from what it committed.
      const second = two.query('update public.tasks set title = $1 where id = $2', [titles[1], ids[1]]);
      expect(await waitsOnLock(db(), twoPid), 'the second writer waits for the first').toBe(true);
      await one.query('commit');
      await second;
      await two.query('commit');
    } finally {
      await Promise.all([one.end(), two.end()]);
    }
    await expectKeptIsFresh(cast.project, 'two changes at once');
    const shown = cards(await boardAsMember()).map((c) => c.title);
    expect(shown).toEqual(expect.arrayContaining(titles));
  });
});
