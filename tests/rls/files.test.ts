// RLS on attachments and on the files behind them (storage.objects), through the Storage API as each
// role (SPEC sections 3 and 6), and the trash that deletes files whose rows are gone.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '../support/backend.ts';
import { scene, type Person, type Scene } from '../support/scene.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

/** What RLS answers when it hides every row from a statement: no error, and nothing done. */
const NO_ROWS = { error: null, data: [] };

async function attach(p: Person, s: Scene, name: string) {
  const id = randomUUID();
  const path = `${s.ws}/${s.task}/${id}/${name}`;
  const stored = await p.client.storage
    .from('attachments')
    .upload(path, bytes(`contents of ${name}`), { contentType: 'text/plain' });
  const row = stored.error
    ? null
    : await p.client.from('attachments').insert({
        id,
        workspace_id: s.ws,
        task_id: s.task,
        path,
        name,
        size: 20,
        content_type: 'text/plain',
      });
  return { id, path, storageError: stored.error, rowError: row?.error ?? null };
}

describe('attachments', () => {
  let s: Scene;
  let file: { id: string; path: string };
  beforeAll(async () => {
    s = await scene();
    const made = await attach(s.member, s, 'plan.txt');
    expect(made.storageError).toBeNull();
    expect(made.rowError).toBeNull();
    file = made;
  });

  it('are uploaded by members, never by viewers or outsiders', async () => {
    const viewer = await attach(s.viewer, s, 'viewer.txt');
    expect(viewer.storageError?.message).toMatch(/row-level security/);
    const outsider = await attach(s.outsider, s, 'outsider.txt');
    expect(outsider.storageError?.message).toMatch(/row-level security/);
    // Nor can a viewer add a row pointing at someone else's file.
    const { error } = await s.viewer.client.from('attachments').insert({
      workspace_id: s.ws,
      task_id: s.task,
      path: `${s.ws}/${s.task}/${randomUUID()}/x.txt`,
      name: 'x.txt',
      size: 1,
      content_type: 'text/plain',
    });
    expect(error?.code).toBe('42501');
  });

  it('are read, listed, downloaded and signed by every member, and by no outsider', async () => {
    for (const p of [s.viewer, s.member, s.owner]) {
      const { data } = await p.client.from('attachments').select('id').eq('id', file.id);
      expect(data).toHaveLength(1);
      const download = await p.client.storage.from('attachments').download(file.path);
      expect(await download.data?.text()).toBe('contents of plan.txt');
      const signed = await p.client.storage.from('attachments').createSignedUrl(file.path, 60);
      expect(signed.error).toBeNull();
    }
    const o = s.outsider.client;
    expect((await o.from('attachments').select('id').eq('id', file.id)).data).toEqual([]);
    const listed = await o.storage.from('attachments').list(`${s.ws}/${s.task}`);
    expect(listed).toMatchObject(NO_ROWS);
    expect((await o.storage.from('attachments').download(file.path)).error).not.toBeNull();
    expect((await o.storage.from('attachments').createSignedUrl(file.path, 60)).error).not.toBeNull();
  });

  it('cannot be overwritten, not even by their uploader, nor deleted by an outsider', async () => {
    const replaced = await s.member.client.storage
      .from('attachments')
      .upload(file.path, bytes('changed'), { upsert: true });
    expect(replaced.error).not.toBeNull();
    const outsider = await s.outsider.client.storage
      .from('attachments')
      .upload(file.path, bytes('changed'), { upsert: true });
    expect(outsider.error).not.toBeNull();
    const removed = await s.outsider.client.storage.from('attachments').remove([file.path]);
    expect(removed).toMatchObject(NO_ROWS);
    const removedRow = await s.outsider.client.from('attachments').delete().eq('id', file.id).select('id');
    expect(removedRow).toMatchObject(NO_ROWS);
    const still = await s.owner.client.storage.from('attachments').download(file.path);
    expect(await still.data?.text()).toBe('contents of plan.txt');
  });

  it('are deleted by their uploader or an admin, not by another member or a viewer', async () => {
    const mine = await attach(s.other, s, 'other.txt');
    for (const p of [s.member, s.viewer]) {
      const deleted = await p.client.from('attachments').delete().eq('id', mine.id).select('id');
      expect(deleted).toMatchObject(NO_ROWS);
    }
    const byAdmin = await s.admin.client.from('attachments').delete().eq('id', mine.id).select('id');
    expect(byAdmin.data).toHaveLength(1);
    const own = await attach(s.other, s, 'own.txt');
    const byUploader = await s.other.client.from('attachments').delete().eq('id', own.id).select('id');
    expect(byUploader.data).toHaveLength(1);
  });

  it('are never changed once attached, by anyone, their uploader included', async () => {
    // A row describes the file stored at its path; the path and the file never change, so neither does it.
    for (const p of [s.member, s.other, s.viewer, s.admin, s.owner, s.outsider]) {
      const renamed = await p.client
        .from('attachments')
        .update({ name: 'renamed.txt' })
        .eq('id', file.id)
        .select('id');
      expect(renamed.error?.code).toBe('42501');
    }
    expect((await s.member.client.from('attachments').select('name').eq('id', file.id)).data).toEqual([
      { name: 'plan.txt' },
    ]);
  });

  it('leave their files in the trash when their rows go, with the task too; the service role empties it', async () => {
    const admin = adminClient();
    const first = await attach(s.member, s, 'a.txt');
    await s.member.client.from('attachments').delete().eq('id', first.id);
    const { data: queued } = await admin.rpc('storage_trash', { max_items: 1000 });
    expect(queued).toContainEqual({ bucket_id: 'attachments', name: first.path });
    // Nobody but the service role can read or empty the trash.
    expect((await s.owner.client.rpc('storage_trash', { max_items: 10 })).error?.code).toBe('42501');

    await admin.storage.from('attachments').remove([first.path]);
    await admin.rpc('storage_trash_emptied', { bucket: 'attachments', names: [first.path] });
    const { data: after } = await admin.rpc('storage_trash', { max_items: 1000 });
    expect(after).not.toContainEqual({ bucket_id: 'attachments', name: first.path });

    // A task leaves for good only when the trash is purged, as the service role.
    await admin.from('tasks').delete().eq('id', s.task);
    const { data: withTask } = await admin.rpc('storage_trash', { max_items: 1000 });
    expect(withTask).toContainEqual({ bucket_id: 'attachments', name: file.path });
  });
});

describe('avatars', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene();
  });

  it('are written only in their owner’s folder, and read by anyone through the public URL', async () => {
    const mine = `${s.member.id}/me.png`;
    const stored = await s.member.client.storage
      .from('avatars')
      .upload(mine, bytes('png?'), { contentType: 'image/png' });
    expect(stored.error).toBeNull();
    const theirs = await s.member.client.storage
      .from('avatars')
      .upload(`${s.owner.id}/me.png`, bytes('png?'), { contentType: 'image/png' });
    expect(theirs.error?.message).toMatch(/row-level security/);
    const publicUrl = s.outsider.client.storage.from('avatars').getPublicUrl(mine).data.publicUrl;
    expect((await fetch(publicUrl)).status).toBe(200);
    const removed = await s.outsider.client.storage.from('avatars').remove([mine]);
    expect(removed).toMatchObject(NO_ROWS);
    expect((await fetch(publicUrl)).status).toBe(200);
    // The bucket itself refuses what is not an image.
    const script = await s.member.client.storage
      .from('avatars')
      .upload(`${s.member.id}/x.html`, bytes('<script>'), { contentType: 'text/html' });
    expect(script.error).not.toBeNull();
  });

  it('a profile points only into its own folder', async () => {
    const { error } = await s.member.client
      .from('profiles')
      .update({ avatar_path: `${s.owner.id}/me.png` })
      .eq('id', s.member.id);
    expect(error?.code).toBe('23514');
  });
});
