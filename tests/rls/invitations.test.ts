// Invitations: who may invite whom, tokens nobody can read, links bound to one address (SPEC 3, 6).
import { describe, expect, it } from 'vitest';
import { anonClient } from '../support/backend.ts';
import { sql } from '../support/db.ts';
import { crew, person, type Person } from '../support/scene.ts';

/** The crew of a workspace, by its id. */
async function team() {
  const cast = await crew();
  return { ...cast, ws: cast.ws.id };
}

type Invite = { invitation_id: string; token: string };
const invite = async (p: Person, ws: string, email: string, role: string) => {
  const { data, error } = await p.client.rpc('create_invitation', { workspace_id: ws, email, role });
  return { invite: (data as Invite[] | null)?.[0], error };
};

describe('invitations', () => {
  it('are sent by admins for members and viewers, and by the owner for admins', async () => {
    const t = await team();
    const guest = await person('guest');
    expect((await invite(t.member, t.ws, guest.email, 'viewer')).error?.code).toBe('42501');
    expect((await invite(t.viewer, t.ws, guest.email, 'viewer')).error?.code).toBe('42501');
    expect((await invite(t.admin, t.ws, guest.email, 'admin')).error?.code).toBe('42501');
    expect((await invite(t.admin, t.ws, guest.email, 'owner')).error?.code).toBe('42501');
    expect((await invite(t.admin, t.ws, guest.email, 'member')).invite?.token).toMatch(/^[0-9a-f]{64}$/);
    expect((await invite(t.owner, t.ws, guest.email.toUpperCase(), 'admin')).invite?.token).toMatch(
      /^[0-9a-f]{64}$/,
    );
    expect((await invite(t.admin, t.ws, t.member.email, 'viewer')).error?.code).toBe('23505');
    const anon = await anonClient().rpc('create_invitation', {
      workspace_id: t.ws,
      email: guest.email,
      role: 'viewer',
    });
    expect(anon.error?.code).toBe('42501');
  });

  it('keep their tokens unreadable, even by admins and the owner, are seen by admins only and deleted by nobody', async () => {
    const t = await team();
    await invite(t.admin, t.ws, 'someone@example.test', 'member');
    const hashes = await t.owner.client.from('invitations').select('token_hash').eq('workspace_id', t.ws);
    expect(hashes.error?.code).toBe('42501');
    const listed = await t.admin.client.from('invitations').select('email, role').eq('workspace_id', t.ws);
    expect(listed.data).toEqual([{ email: 'someone@example.test', role: 'member' }]);
    // Members below admin, and people outside, see none and delete none (revoking is an update).
    const outsider = await person('outsider');
    for (const p of [t.member, t.viewer, outsider]) {
      const seen = await p.client.from('invitations').select('email').eq('workspace_id', t.ws);
      expect(seen).toMatchObject({ error: null, data: [] });
    }
    for (const p of [t.viewer, outsider, t.admin, t.owner]) {
      const deleted = await p.client.from('invitations').delete().eq('workspace_id', t.ws).select('id');
      expect(deleted.error?.code).toBe('42501');
    }
    expect((await t.admin.client.from('invitations').select('email').eq('workspace_id', t.ws)).data).toEqual([
      { email: 'someone@example.test' },
    ]);
    const stored = await sql('select token_hash from public.invitations where workspace_id = $1', [t.ws]);
    expect(String(stored[0]?.token_hash)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('are accepted only by the invited address, once, and twice is harmless', async () => {
    const t = await team();
    const guest = await person('guest');
    const intruder = await person('intruder');
    const { invite: inv } = await invite(t.admin, t.ws, guest.email, 'member');
    const token = inv?.token ?? '';
    const preview = await anonClient().rpc('invitation_preview', { token });
    expect(preview.data).toEqual([
      { workspace_name: 'Acme', email: guest.email, role: 'member', status: 'pending' },
    ]);
    const wrong = await intruder.client.rpc('accept_invitation', { token });
    expect(wrong.status).toBe(404);
    expect((await anonClient().rpc('accept_invitation', { token })).error?.code).toBe('42501');
    const accepted = await guest.client.rpc('accept_invitation', { token });
    expect(accepted.error).toBeNull();
    expect((accepted.data as { id: string }).id).toBe(t.ws);
    expect((await guest.client.rpc('accept_invitation', { token })).error).toBeNull();
    const { data: role } = await guest.client
      .from('workspace_members')
      .select('role')
      .eq('workspace_id', t.ws)
      .eq('user_id', guest.id)
      .single();
    expect(role?.role).toBe('member');
    expect((await intruder.client.rpc('accept_invitation', { token })).status).toBe(404);
  });

  it('stop working when revoked, when resent (the old token), or after seven days', async () => {
    const t = await team();
    const guest = await person('guest');
    const { invite: revokedInvite } = await invite(t.admin, t.ws, guest.email, 'viewer');
    expect(
      (
        await t.member.client
          .from('invitations')
          .update({ revoked_at: new Date().toISOString() })
          .eq('id', revokedInvite?.invitation_id ?? '')
          .select('id')
      ).data,
    ).toEqual([]);
    expect(
      (
        await t.admin.client
          .from('invitations')
          .update({ revoked_at: new Date().toISOString() })
          .eq('id', revokedInvite?.invitation_id ?? '')
          .select('id')
      ).data,
    ).toHaveLength(1);
    expect((await guest.client.rpc('accept_invitation', { token: revokedInvite?.token })).status).toBe(404);

    const { invite: resent } = await invite(t.admin, t.ws, guest.email, 'viewer');
    const fresh = await t.admin.client.rpc('resend_invitation', { invitation_id: resent?.invitation_id });
    expect(fresh.data).toMatch(/^[0-9a-f]{64}$/);
    expect((await guest.client.rpc('accept_invitation', { token: resent?.token })).status).toBe(404);

    await sql("update public.invitations set expires_at = now() - interval '1 minute' where id = $1", [
      resent?.invitation_id,
    ]);
    expect((await anonClient().rpc('invitation_preview', { token: fresh.data })).data).toEqual([
      { workspace_name: 'Acme', email: guest.email, role: 'viewer', status: 'expired' },
    ]);
    expect((await guest.client.rpc('accept_invitation', { token: fresh.data })).status).toBe(404);
  });
});
