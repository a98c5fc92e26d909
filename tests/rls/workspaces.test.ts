// RLS on workspaces and workspace_members, role by role (SPEC section 6).
import { beforeAll, describe, expect, it } from 'vitest';
import { adminClient, anonClient } from '../support/backend.ts';
import { sql } from '../support/db.ts';
import { crew, person, type Crew, type Person, type Role } from '../support/scene.ts';

const slug = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 10)}`;

describe('workspaces', () => {
  let c: Crew;
  beforeAll(async () => {
    c = await crew();
  });

  it('give every new account a personal workspace it owns', async () => {
    const me = await person('personal');
    const { data } = await me.client.from('workspaces').select('name, is_personal');
    expect(data).toEqual([{ name: 'Personal', is_personal: true }]);
    const { data: membership } = await me.client
      .from('workspace_members')
      .select('role')
      .eq('user_id', me.id);
    expect(membership).toEqual([{ role: 'owner' }]);
  });

  it('are read by members only', async () => {
    for (const p of [c.owner, c.admin, c.member, c.viewer]) {
      const { data } = await p.client.from('workspaces').select('id').eq('id', c.ws.id);
      expect(data, p.email).toEqual([{ id: c.ws.id }]);
    }
    expect((await c.outsider.client.from('workspaces').select('id').eq('id', c.ws.id)).data).toEqual([]);
    const anon = await anonClient().from('workspaces').select('id');
    expect(anon.error?.code).toBe('42501');
  });

  it('are renamed by admins and owners, not members or viewers', async () => {
    for (const p of [c.member, c.viewer, c.outsider]) {
      const { data } = await p.client
        .from('workspaces')
        .update({ name: 'Hijacked' })
        .eq('id', c.ws.id)
        .select('id');
      expect(data, p.email).toEqual([]);
    }
    for (const [p, name] of [
      [c.admin, 'Acme by admin'],
      [c.owner, 'Acme'],
    ] as const) {
      const { data, error } = await p.client
        .from('workspaces')
        .update({ name })
        .eq('id', c.ws.id)
        .select('name');
      expect(error, p.email).toBeNull();
      expect(data).toEqual([{ name }]);
    }
  });

  it('cannot be created or have their flags changed directly', async () => {
    const insert = await c.owner.client.from('workspaces').insert({ name: 'Sneaky', slug: slug('sneaky') });
    expect(insert.error?.code).toBe('42501');
    const flag = await c.owner.client.from('workspaces').update({ is_personal: true }).eq('id', c.ws.id);
    expect(flag.error?.code).toBe('42501');
  });

  it('refuse taken, malformed and reserved slugs', async () => {
    const taken = await c.outsider.client.rpc('create_workspace', { name: 'Copy', slug: c.ws.slug });
    expect(taken.error?.code).toBe('23505');
    for (const bad of ['-bad', 'Bad Slug', 'ab', 'settings', 'x'.repeat(41)]) {
      const { error } = await c.outsider.client.rpc('create_workspace', { name: 'Bad', slug: bad });
      expect(error?.code, bad).toBe('23514');
    }
    const blankName = await c.outsider.client.rpc('create_workspace', { name: '   ', slug: slug('blank') });
    expect(blankName.error?.code).toBe('23514');
    const anon = await anonClient().rpc('create_workspace', { name: 'Anon', slug: slug('anon') });
    expect(anon.error?.code).toBe('42501');
  });

  it('are deleted by the owner only, and never the personal one', async () => {
    const fresh = await crew();
    for (const p of [fresh.admin, fresh.member, fresh.viewer, fresh.outsider]) {
      const { data } = await p.client.from('workspaces').delete().eq('id', fresh.ws.id).select('id');
      expect(data, p.email).toEqual([]);
    }
    const { data: personal } = await fresh.owner.client
      .from('workspaces')
      .select('id')
      .eq('is_personal', true)
      .single();
    expect(
      (
        await fresh.owner.client
          .from('workspaces')
          .delete()
          .eq('id', personal?.id ?? '')
          .select('id')
      ).data,
    ).toEqual([]);
    const { data, error } = await fresh.owner.client
      .from('workspaces')
      .delete()
      .eq('id', fresh.ws.id)
      .select('id');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: fresh.ws.id }]);
    expect((await fresh.member.client.from('workspaces').select('id').eq('id', fresh.ws.id)).data).toEqual(
      [],
    );
  });
});

describe('workspace members', () => {
  it('are visible to members, with their profiles, and to nobody else', async () => {
    const c = await crew();
    const { data } = await c.viewer.client
      .from('workspace_members')
      .select('user_id, role')
      .eq('workspace_id', c.ws.id);
    expect(data).toHaveLength(4);
    const { data: profiles } = await c.viewer.client
      .from('profiles')
      .select('id')
      .in('id', [c.owner.id, c.outsider.id]);
    expect(profiles).toEqual([{ id: c.owner.id }]);
    expect(
      (await c.outsider.client.from('workspace_members').select('user_id').eq('workspace_id', c.ws.id)).data,
    ).toEqual([]);
  });

  it('change roles below the changer: admins manage viewers and members, the owner also admins', async () => {
    const c = await crew();
    const setRole = (p: Person, target: Person, role: Role) =>
      p.client
        .from('workspace_members')
        .update({ role })
        .eq('workspace_id', c.ws.id)
        .eq('user_id', target.id)
        .select('role');

    expect((await setRole(c.member, c.viewer, 'member')).data).toEqual([]);
    expect((await setRole(c.member, c.member, 'admin')).data).toEqual([]);
    expect((await setRole(c.viewer, c.viewer, 'owner')).data).toEqual([]);
    expect((await setRole(c.admin, c.viewer, 'member')).data).toEqual([{ role: 'member' }]);
    expect((await setRole(c.admin, c.member, 'admin')).error?.code).toBe('42501');
    expect((await setRole(c.admin, c.admin, 'owner')).data).toEqual([]);
    expect((await setRole(c.owner, c.member, 'admin')).data).toEqual([{ role: 'admin' }]);
    expect((await setRole(c.owner, c.member, 'owner')).error?.code).toBe('42501');
    expect((await setRole(c.outsider, c.viewer, 'admin')).data).toEqual([]);
  });

  it('are removed below the remover, leave on their own, and the owner cannot leave', async () => {
    const c = await crew();
    const remove = (p: Person, target: Person) =>
      p.client
        .from('workspace_members')
        .delete()
        .eq('workspace_id', c.ws.id)
        .eq('user_id', target.id)
        .select('user_id');
    expect((await remove(c.member, c.viewer)).data).toEqual([]);
    expect((await remove(c.admin, c.owner)).data).toEqual([]);
    expect((await remove(c.outsider, c.viewer)).data).toEqual([]);
    expect((await remove(c.owner, c.owner)).data).toEqual([]);
    expect((await remove(c.admin, c.member)).data).toEqual([{ user_id: c.member.id }]);
    expect((await remove(c.viewer, c.viewer)).data).toEqual([{ user_id: c.viewer.id }]);
    expect((await remove(c.owner, c.admin)).data).toEqual([{ user_id: c.admin.id }]);
  });

  it('move ownership only through transfer_ownership, which keeps exactly one owner', async () => {
    const c = await crew();
    const byAdmin = await c.admin.client.rpc('transfer_ownership', { ws: c.ws.id, new_owner: c.admin.id });
    expect(byAdmin.error?.code).toBe('42501');
    const toOutsider = await c.owner.client.rpc('transfer_ownership', {
      ws: c.ws.id,
      new_owner: c.outsider.id,
    });
    expect(toOutsider.error?.code).toBe('23514');
    expect(
      (await c.owner.client.rpc('transfer_ownership', { ws: c.ws.id, new_owner: c.member.id })).error,
    ).toBeNull();
    const { data } = await c.owner.client
      .from('workspace_members')
      .select('user_id, role')
      .eq('workspace_id', c.ws.id)
      .in('role', ['owner', 'admin']);
    expect(data).toEqual(
      expect.arrayContaining([
        { user_id: c.member.id, role: 'owner' },
        { user_id: c.owner.id, role: 'admin' },
      ]),
    );
    expect(data?.filter((r) => r.role === 'owner')).toHaveLength(1);
    // The old owner may now leave; the new one may not.
    const leave = (p: Person) =>
      p.client
        .from('workspace_members')
        .delete()
        .eq('workspace_id', c.ws.id)
        .eq('user_id', p.id)
        .select('user_id');
    expect((await leave(c.member)).data).toEqual([]);
    expect((await leave(c.owner)).data).toEqual([{ user_id: c.owner.id }]);
  });

  it('cannot be added directly', async () => {
    const c = await crew();
    const { error } = await c.owner.client
      .from('workspace_members')
      .insert({ workspace_id: c.ws.id, user_id: c.outsider.id, role: 'viewer' });
    expect(error?.code).toBe('42501');
  });

  it('take the personal workspace along when an account is deleted', async () => {
    const me = await person('leaving');
    const { data } = await me.client.from('workspaces').select('id').single();
    expect((await adminClient().auth.admin.deleteUser(me.id)).error).toBeNull();
    expect(await sql('select 1 from public.workspaces where id = $1', [data?.id])).toEqual([]);
  });
});
