// RLS and rules of saved views, role by role (SPEC sections 3, 5 and 6): anyone who reads a project
// reads its shared views and their own personal ones, never another person's; every member, viewers
// included, saves personal views; admins and the owner share, unshare and delete shared ones; people
// delete their own personal ones; outsiders and anon read and write nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '../support/backend.ts';
import { sql } from '../support/db.ts';
import { addMember, scene, type Person, type Scene } from '../support/scene.ts';

/** What RLS answers when it hides every row from a statement: no error, and nothing done. */
const NO_ROWS = { error: null, data: [] };

let serial = 0;
/** A name no other view of the test has. */
const fresh = (stem = 'view') => `${stem} ${++serial}`;

function save(p: Person, s: Scene, fields: { name?: string; shared?: boolean; query?: object } = {}) {
  return p.client
    .from('saved_views')
    .insert({
      workspace_id: s.ws,
      project_id: s.project,
      name: fields.name ?? fresh(),
      kind: 'board',
      query: fields.query ?? { assignee: 'me' },
      shared: fields.shared ?? false,
    })
    .select('id, name, shared, owner_id')
    .single();
}

/** A view made as setup: a refusal here is a broken cast, not a test result. */
async function saved(p: Person, s: Scene, shared = false): Promise<string> {
  const { data, error } = await save(p, s, { shared });
  if (error) throw new Error(`could not save a view: ${error.message}`);
  return data.id;
}

const read = (p: Person, id: string) => p.client.from('saved_views').select('id').eq('id', id);
const exists = async (id: string) =>
  (await sql('select 1 from public.saved_views where id = $1', [id], { role: 'superuser' })).length === 1;

describe('saved views', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene();
  });

  it('personal ones are saved by every member, viewers included, as themselves, and by nobody else', async () => {
    for (const p of [s.owner, s.admin, s.member, s.viewer]) {
      const { data, error } = await save(p, s);
      expect(error, p.email).toBeNull();
      expect(data?.owner_id).toBe(p.id);
    }
    expect((await save(s.outsider, s)).error?.code).toBe('42501');
    const anon = await anonClient()
      .from('saved_views')
      .insert({ workspace_id: s.ws, project_id: s.project, name: fresh() });
    expect(anon.error?.code).toBe('42501');
  });

  it('personal ones are read by their owner only: not by teammates, admins, outsiders or anon', async () => {
    const id = await saved(s.member, s);
    expect(await read(s.member, id)).toMatchObject({ error: null, data: [{ id }] });
    for (const p of [s.other, s.viewer, s.admin, s.owner, s.outsider])
      expect(await read(p, id), p.email).toMatchObject(NO_ROWS);
    expect((await anonClient().from('saved_views').select('id').eq('id', id)).error?.code).toBe('42501');
  });

  it('shared ones are read by every member and by nobody outside', async () => {
    const id = await saved(s.admin, s, true);
    for (const p of [s.owner, s.admin, s.member, s.other, s.viewer])
      expect(await read(p, id), p.email).toMatchObject({ error: null, data: [{ id }] });
    expect(await read(s.outsider, id)).toMatchObject(NO_ROWS);
  });

  it('are shared by admins and the owner only: members and viewers cannot, saving or after', async () => {
    for (const p of [s.member, s.viewer]) {
      expect((await save(p, s, { shared: true })).error?.code, p.email).toBe('42501');
      const id = await saved(p, s);
      const shared = await p.client.from('saved_views').update({ shared: true }).eq('id', id).select('id');
      expect(shared.error?.code, p.email).toBe('42501');
    }
    for (const p of [s.admin, s.owner]) {
      const id = await saved(p, s);
      const shared = await p.client
        .from('saved_views')
        .update({ shared: true })
        .eq('id', id)
        .select('shared');
      expect(shared).toMatchObject({ error: null, data: [{ shared: true }] });
      expect(await read(s.viewer, id)).toMatchObject({ error: null, data: [{ id }] });
    }
  });

  it('shared ones are deleted by admins and the owner, unshared by the admin who saved them, by no member', async () => {
    const byAdmin = await saved(s.admin, s, true);
    for (const p of [s.member, s.viewer, s.outsider]) {
      const unshared = await p.client
        .from('saved_views')
        .update({ shared: false })
        .eq('id', byAdmin)
        .select('id');
      expect(unshared, p.email).toMatchObject(NO_ROWS);
      expect(await p.client.from('saved_views').delete().eq('id', byAdmin).select('id')).toMatchObject(
        NO_ROWS,
      );
    }
    expect(await exists(byAdmin)).toBe(true);
    // The owner does not unshare the admin's view (it would be the admin's alone); the admin does.
    const byOwner = await s.owner.client.from('saved_views').update({ shared: false }).eq('id', byAdmin);
    expect(byOwner.error?.code).toBe('42501');
    expect(await read(s.member, byAdmin)).toMatchObject({ error: null, data: [{ id: byAdmin }] });
    const unshared = await s.admin.client
      .from('saved_views')
      .update({ shared: false })
      .eq('id', byAdmin)
      .select('shared');
    expect(unshared).toMatchObject({ error: null, data: [{ shared: false }] });
    expect(await read(s.member, byAdmin)).toMatchObject(NO_ROWS);

    for (const p of [s.admin, s.owner]) {
      const id = await saved(s.admin, s, true);
      expect(await p.client.from('saved_views').delete().eq('id', id).select('id')).toMatchObject({
        error: null,
        data: [{ id }],
      });
      expect(await exists(id)).toBe(false);
    }
  });

  it('personal ones are deleted and renamed by their owner only', async () => {
    const id = await saved(s.member, s);
    for (const p of [s.other, s.admin, s.owner, s.viewer]) {
      expect(await p.client.from('saved_views').delete().eq('id', id).select('id'), p.email).toMatchObject(
        NO_ROWS,
      );
      const renamed = await p.client
        .from('saved_views')
        .update({ name: 'Mine now' })
        .eq('id', id)
        .select('id');
      expect(renamed, p.email).toMatchObject(NO_ROWS);
    }
    const renamed = await s.member.client
      .from('saved_views')
      .update({ name: '  Renamed  ' })
      .eq('id', id)
      .select('name');
    expect(renamed).toMatchObject({ error: null, data: [{ name: 'Renamed' }] });
    expect(await s.member.client.from('saved_views').delete().eq('id', id).select('id')).toMatchObject({
      error: null,
      data: [{ id }],
    });
  });

  it('cannot be saved as someone else, or for a project of another workspace', async () => {
    const asOther = await s.member.client
      .from('saved_views')
      .insert({ workspace_id: s.ws, project_id: s.project, name: fresh(), owner_id: s.other.id });
    expect(asOther.error?.code).toBe('42501');
    const elsewhere = await scene();
    const foreign = await s.owner.client
      .from('saved_views')
      .insert({ workspace_id: s.ws, project_id: elsewhere.project, name: fresh() });
    expect(foreign.error?.code).toBe('23503');
  });

  it('have names as a project has, unique per person and among shared ones, and only known parameters', async () => {
    const refused = async (name: string, constraint: string) => {
      const { error } = await save(s.member, s, { name });
      expect(error?.code, JSON.stringify(name)).toBe('23514');
      expect(error?.message).toContain(constraint);
    };
    await refused('', 'saved_views_name_length');
    await refused('   ', 'saved_views_name_length');
    await refused('x'.repeat(81), 'saved_views_name_length');
    await refused('tab\there', 'saved_views_name_printable');
    expect((await save(s.member, s, { name: ` ${'x'.repeat(80)} ` })).data?.name).toBe('x'.repeat(80));

    expect((await save(s.member, s, { name: 'Mine' })).error).toBeNull();
    expect((await save(s.member, s, { name: 'MINE' })).error?.code).toBe('23505');
    // Another person's name, or a shared view's, is no clash for a personal view.
    expect((await save(s.other, s, { name: 'Mine' })).error).toBeNull();
    expect((await save(s.admin, s, { name: 'Team', shared: true })).error).toBeNull();
    expect((await save(s.owner, s, { name: 'team', shared: true })).error?.code).toBe('23505');
    expect((await save(s.member, s, { name: 'Team' })).error).toBeNull();

    const unknown = await save(s.member, s, { query: { assignee: 'me', select: '*' } });
    expect(unknown.error?.code).toBe('23514');
    expect(
      (await save(s.member, s, { query: { label: ['bug', 'ui'], sort: 'due', dir: 'asc' } })).error,
    ).toBeNull();
  });

  it('personal ones go when their owner leaves the workspace; shared ones stay', async () => {
    const leaver = (await scene()).member;
    await addMember(s.ws, leaver.id, 'admin');
    const personal = await saved(leaver, s);
    const shared = await saved(leaver, s, true);
    await sql('delete from public.workspace_members where workspace_id = $1 and user_id = $2', [
      s.ws,
      leaver.id,
    ]);
    expect(await exists(personal)).toBe(false);
    expect(await exists(shared)).toBe(true);
  });
});
