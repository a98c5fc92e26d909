// RLS and rules of labels and of labels on tasks, role by role (SPEC sections 5, 6 and 9): members
// read them; admins and the owner make, change and delete labels; members and above put them on tasks
// of active projects and take them off; viewers change nothing; outsiders and anon see nothing. A
// label of another workspace never goes on a task, whoever asks and however.
import { beforeAll, describe, expect, it } from 'vitest';
import { LABEL_COLOURS } from '../../app/styles/label-colours.ts';
import { anonClient } from '../support/backend.ts';
import { sql } from '../support/db.ts';
import { addMember, scene, type Person, type Scene } from '../support/scene.ts';

/** What RLS answers when it hides every row from a statement: no error, and nothing done. */
const NO_ROWS = { error: null, data: [] };

let serial = 0;
/** A name no other label of the test has. */
const fresh = (stem = 'label') => `${stem} ${++serial}`;

async function newLabel(p: Person, ws: string, name = fresh(), color = 'blue') {
  return p.client.from('labels').insert({ workspace_id: ws, name, color }).select('id, name, color').single();
}

/** A label the admin made: setup, so a refusal here is a broken cast, not a test result. */
async function madeLabel(s: Scene, name = fresh()): Promise<string> {
  const { data, error } = await newLabel(s.admin, s.ws, name);
  if (error) throw new Error(`the admin could not make a label: ${error.message}`);
  return data.id;
}

const putOn = (p: Person, s: Scene, labelId: string, task = s.task, ws = s.ws) =>
  p.client
    .from('task_labels')
    .insert({ task_id: task, label_id: labelId, workspace_id: ws })
    .select('label_id');

const takeOff = (p: Person, s: Scene, labelId: string) =>
  p.client.from('task_labels').delete().eq('task_id', s.task).eq('label_id', labelId).select('label_id');

const labelsOnTask = async (s: Scene) =>
  (
    await sql<{ label_id: string }>('select label_id from public.task_labels where task_id = $1 order by 1', [
      s.task,
    ])
  ).map((r) => r.label_id);

describe('labels', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene();
  });

  it('are created by admins and the owner, not by members, viewers, outsiders or anon', async () => {
    for (const p of [s.admin, s.owner]) expect((await newLabel(p, s.ws)).error).toBeNull();
    for (const p of [s.member, s.viewer, s.outsider])
      expect((await newLabel(p, s.ws)).error?.code).toBe('42501');
    const anon = await anonClient()
      .from('labels')
      .insert({ workspace_id: s.ws, name: fresh(), color: 'red' });
    expect(anon.error?.code).toBe('42501');
  });

  it('are read by every member, and by nobody else', async () => {
    const id = await madeLabel(s, 'Readable');
    for (const p of [s.owner, s.admin, s.member, s.other, s.viewer])
      expect(await p.client.from('labels').select('name').eq('id', id)).toMatchObject({
        error: null,
        data: [{ name: 'Readable' }],
      });
    expect(await s.outsider.client.from('labels').select('id').eq('id', id)).toMatchObject(NO_ROWS);
    expect((await anonClient().from('labels').select('id').eq('id', id)).error?.code).toBe('42501');
  });

  it('are renamed and recoloured by admins and the owner only', async () => {
    const id = await madeLabel(s);
    for (const p of [s.member, s.viewer, s.outsider]) {
      const changed = await p.client.from('labels').update({ name: 'Hijacked' }).eq('id', id).select('id');
      expect(changed).toMatchObject(NO_ROWS);
    }
    for (const [p, name, color] of [
      [s.admin, fresh('by an admin'), 'green'],
      [s.owner, fresh('by the owner'), 'pink'],
    ] as const) {
      const changed = await p.client
        .from('labels')
        .update({ name, color })
        .eq('id', id)
        .select('name, color');
      expect(changed).toMatchObject({ error: null, data: [{ name, color }] });
    }
    // A label stays in its workspace.
    const other = await scene();
    const moved = await s.owner.client.from('labels').update({ workspace_id: other.ws }).eq('id', id);
    expect(moved.error?.code).toBe('42501');
  });

  it('are deleted by admins and the owner only, and come off every task with them', async () => {
    for (const p of [s.member, s.viewer, s.outsider]) {
      const id = await madeLabel(s);
      expect(await p.client.from('labels').delete().eq('id', id).select('id')).toMatchObject(NO_ROWS);
    }
    for (const p of [s.admin, s.owner]) {
      const id = await madeLabel(s);
      expect((await putOn(s.member, s, id)).error).toBeNull();
      expect(await p.client.from('labels').delete().eq('id', id).select('id')).toMatchObject({
        error: null,
        data: [{ id }],
      });
      expect(await labelsOnTask(s)).not.toContain(id);
    }
  });

  it('have names of 1 to 30 characters, trimmed, without control characters', async () => {
    const refused = async (name: string, constraint: string) => {
      const { error } = await newLabel(s.admin, s.ws, name);
      expect(error?.code, JSON.stringify(name)).toBe('23514');
      expect(error?.message).toContain(constraint);
    };
    await refused('', 'labels_name_length');
    await refused('   ', 'labels_name_length');
    await refused('x'.repeat(31), 'labels_name_length');
    await refused('tab\there', 'labels_name_printable');
    await refused('line\nbreak', 'labels_name_printable');
    await refused('bell\u0007', 'labels_name_printable');
    await refused('c1\u0085', 'labels_name_printable');
    expect((await newLabel(s.admin, s.ws, `  ${'y'.repeat(30)}  `)).data?.name).toBe('y'.repeat(30));
    expect((await newLabel(s.admin, s.ws, 'Café ☕')).data?.name).toBe('Café ☕');
  });

  it('have unique names in a workspace, whatever their letter case, and not across workspaces', async () => {
    const name = fresh('Customer');
    expect((await newLabel(s.admin, s.ws, name)).error).toBeNull();
    for (const twin of [name.toUpperCase(), name.toLowerCase(), ` ${name} `]) {
      const { error } = await newLabel(s.admin, s.ws, twin);
      expect(error?.code, twin).toBe('23505');
      expect(error?.message).toContain('labels_workspace_name_key');
    }
    const other = await madeLabel(s);
    const renamed = await s.admin.client.from('labels').update({ name: name.toUpperCase() }).eq('id', other);
    expect(renamed.error?.code).toBe('23505');
    const elsewhere = await scene();
    expect((await newLabel(elsewhere.admin, elsewhere.ws, name)).error).toBeNull();
  });

  it('take a colour of the palette, every one of it, and nothing else', async () => {
    for (const color of LABEL_COLOURS)
      expect((await newLabel(s.admin, s.ws, fresh(color), color)).error).toBeNull();
    for (const color of ['black', 'Red', '', '#ff0000']) {
      const { error } = await newLabel(s.admin, s.ws, fresh(), color);
      expect(error?.code, color).toBe('23514');
      expect(error?.message).toContain('labels_color_in_palette');
    }
  });

  it('number at most 200 in a workspace', async () => {
    const full = await scene();
    const rows = Array.from({ length: 200 }, (_, i) => ({
      workspace_id: full.ws,
      name: `L${i}`,
      color: 'gray',
    }));
    const made = await full.admin.client.from('labels').insert(rows).select('id');
    expect(made.error).toBeNull();
    expect(made.data).toHaveLength(200);
    const { error } = await newLabel(full.owner, full.ws, 'One too many');
    expect(error?.code).toBe('23514');
    expect(error?.message).toBe('A workspace can have at most 200 labels.');
    expect(error?.details).toContain('"labels_per_workspace"');
    // At the limit a label is still renamed; one deleted makes room for one more.
    const first = made.data?.[0]?.id ?? '';
    expect(
      (await full.admin.client.from('labels').update({ name: 'Renamed' }).eq('id', first)).error,
    ).toBeNull();
    await full.admin.client.from('labels').delete().eq('id', first);
    expect((await newLabel(full.owner, full.ws, 'Room again')).error).toBeNull();
    // A batch that would cross the limit is refused whole.
    const over = await full.admin.client.from('labels').insert([
      { workspace_id: full.ws, name: 'Over 1', color: 'red' },
      { workspace_id: full.ws, name: 'Over 2', color: 'red' },
    ]);
    expect(over.error?.code).toBe('23514');
    expect((await sql('select 1 from public.labels where workspace_id = $1', [full.ws])).length).toBe(200);
  });
});

describe('labels on tasks', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene();
  });

  it('are put on by members, admins and the owner, not by viewers, outsiders or anon', async () => {
    for (const p of [s.member, s.admin, s.owner]) {
      const id = await madeLabel(s);
      expect(await putOn(p, s, id)).toMatchObject({ error: null, data: [{ label_id: id }] });
    }
    const id = await madeLabel(s);
    for (const p of [s.viewer, s.outsider]) expect((await putOn(p, s, id)).error?.code).toBe('42501');
    const anon = await anonClient()
      .from('task_labels')
      .insert({ task_id: s.task, label_id: id, workspace_id: s.ws });
    expect(anon.error?.code).toBe('42501');
    expect(await labelsOnTask(s)).not.toContain(id);
  });

  it('are read by every member, and by nobody else', async () => {
    const id = await madeLabel(s);
    await putOn(s.member, s, id);
    for (const p of [s.owner, s.admin, s.member, s.viewer])
      expect(await p.client.from('task_labels').select('label_id').eq('label_id', id)).toMatchObject({
        error: null,
        data: [{ label_id: id }],
      });
    expect(await s.outsider.client.from('task_labels').select('label_id').eq('label_id', id)).toMatchObject(
      NO_ROWS,
    );
    expect((await anonClient().from('task_labels').select('label_id')).error?.code).toBe('42501');
    // Through the task, as the panel reads them.
    const { data } = await s.viewer.client
      .from('tasks')
      .select('task_labels(label:labels(id, name))')
      .eq('id', s.task)
      .single();
    expect(data).toEqual({
      task_labels: expect.arrayContaining([{ label: { id, name: expect.any(String) } }]),
    });
  });

  it('are taken off by members, admins and the owner, not by viewers or outsiders', async () => {
    const id = await madeLabel(s);
    for (const p of [s.viewer, s.outsider]) {
      await putOn(s.member, s, id);
      expect(await takeOff(p, s, id)).toMatchObject(NO_ROWS);
      expect(await labelsOnTask(s)).toContain(id);
    }
    for (const p of [s.member, s.admin, s.owner]) {
      await putOn(s.other, s, id);
      expect(await takeOff(p, s, id)).toMatchObject({ error: null, data: [{ label_id: id }] });
    }
    expect(await labelsOnTask(s)).not.toContain(id);
  });

  it('are never changed in place: put on and taken off only', async () => {
    const [a, b] = [await madeLabel(s), await madeLabel(s)];
    await putOn(s.member, s, a);
    for (const p of [s.member, s.owner]) {
      const changed = await p.client.from('task_labels').update({ label_id: b }).eq('label_id', a);
      expect(changed.error?.code).toBe('42501');
    }
  });

  it('stay as they are in archived projects', async () => {
    const archived = await scene();
    const id = await madeLabel(archived);
    const kept = await madeLabel(archived);
    expect((await putOn(archived.member, archived, kept)).error).toBeNull();
    await archived.admin.client
      .from('projects')
      .update({ archived_at: new Date().toISOString() })
      .eq('id', archived.project);
    for (const p of [archived.member, archived.owner]) {
      expect((await putOn(p, archived, id)).error?.code).toBe('42501');
      expect(await takeOff(p, archived, kept)).toMatchObject(NO_ROWS);
      const set = await p.client.rpc('set_task_labels', { task_id: archived.task, label_ids: [] });
      expect(set.error?.code).toBe('42501');
    }
    expect(await labelsOnTask(archived)).toEqual([kept]);
  });

  it('never carry a label of another workspace, even for someone in both', async () => {
    const elsewhere = await scene();
    // The member belongs to both workspaces, so only the foreign keys stand in the way.
    await addMember(elsewhere.ws, s.member.id, 'member');
    const foreign = await madeLabel(elsewhere);
    const asHome = await putOn(s.member, s, foreign);
    expect(asHome.error?.code).toBe('23503');
    expect(asHome.error?.message).toContain('task_labels_label_fkey');
    const asElsewhere = await putOn(s.member, s, foreign, s.task, elsewhere.ws);
    expect(asElsewhere.error?.code).toBe('23503');
    expect(asElsewhere.error?.message).toContain('task_labels_task_fkey');
    const set = await s.member.client.rpc('set_task_labels', { task_id: s.task, label_ids: [foreign] });
    expect(set.error?.code).toBe('23503');
    // Not even past the policies: the database itself refuses the pair.
    await expect(
      sql('insert into public.task_labels (task_id, label_id, workspace_id) values ($1, $2, $3)', [
        s.task,
        foreign,
        s.ws,
      ]),
    ).rejects.toMatchObject({ code: '23503' });
    expect(await labelsOnTask(s)).not.toContain(foreign);
  });
});

describe('set_task_labels', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene();
  });

  it('gives the task exactly the labels named, at once', async () => {
    const [a, b, c] = [await madeLabel(s), await madeLabel(s), await madeLabel(s)];
    await putOn(s.member, s, a);
    await putOn(s.member, s, b);
    const set = await s.member.client.rpc('set_task_labels', { task_id: s.task, label_ids: [b, c, c] });
    expect(set.error).toBeNull();
    expect(await labelsOnTask(s)).toEqual([b, c].sort());
    expect(
      (await s.admin.client.rpc('set_task_labels', { task_id: s.task, label_ids: [] })).error,
    ).toBeNull();
    expect(await labelsOnTask(s)).toEqual([]);
  });

  it('leaves the task as it was when any part is refused', async () => {
    const elsewhere = await scene();
    const [a, b] = [await madeLabel(s), await madeLabel(s)];
    const foreign = await madeLabel(elsewhere);
    await putOn(s.member, s, a);
    const set = await s.member.client.rpc('set_task_labels', { task_id: s.task, label_ids: [b, foreign] });
    expect(set.error?.code).toBe('23503');
    expect(await labelsOnTask(s)).toEqual([a]);
  });

  it('is refused to viewers and outsiders', async () => {
    const a = await madeLabel(s);
    await s.member.client.rpc('set_task_labels', { task_id: s.task, label_ids: [a] });
    const byViewer = await s.viewer.client.rpc('set_task_labels', { task_id: s.task, label_ids: [] });
    expect(byViewer.error?.code).toBe('42501');
    const adding = await s.viewer.client.rpc('set_task_labels', {
      task_id: s.task,
      label_ids: [a, await madeLabel(s)],
    });
    expect(adding.error?.code).toBe('42501');
    // To an outsider the task is not there.
    const byOutsider = await s.outsider.client.rpc('set_task_labels', { task_id: s.task, label_ids: [] });
    expect(byOutsider.error?.code).toBe('P0002');
    expect((await anonClient().rpc('set_task_labels', { task_id: s.task, label_ids: [] })).error?.code).toBe(
      '42501',
    );
    expect(await labelsOnTask(s)).toEqual([a]);
  });
});
