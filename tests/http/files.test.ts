// Files through the production build against the shared test backend: an avatar's type is what its bytes say, for every type SPEC section 5 allows, whatever its name and
// the browser claim; deleting a workspace deletes its files from storage, not only their rows.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NO_SIGN_IN_LIMITS,
  createAppScene,
  postFile as postFileAs,
  postForm,
  startAppServer,
  type AppScene,
  type AppServer,
} from '../support/app-server.ts';
import { adminClient, backend } from '../support/backend.ts';
import { sql } from '../support/db.ts';

let app: AppServer;

beforeAll(async () => {
  app = await startAppServer(backend(), NO_SIGN_IN_LIMITS);
}, 60_000);

afterAll(async () => {
  await app?.stop();
});

const postFile = (scene: AppScene, path: string, field: string, file: File) =>
  postFileAs(app, path, field, file, scene.cookie);

// The smallest real images of each type (1×1, each decodes in Chromium).
const IMAGES = {
  'image/jpeg': Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  ),
  'image/gif': Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
  'image/webp': Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64'),
};
const EXTENSION = { 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' } as const;

describe('avatars', () => {
  let scene: AppScene;
  let userId = '';
  beforeAll(async () => {
    scene = await createAppScene(app, backend(), 'avatar');
    userId =
      (await sql<{ id: string }>('select id from auth.users where email = $1', [scene.email]))[0]?.id ?? '';
    expect(userId).toBeTruthy();
  });

  it.each(Object.keys(IMAGES) as Array<keyof typeof IMAGES>)(
    '%s is stored as what its bytes are, under a misleading name and type',
    async (type) => {
      const bytes = IMAGES[type];
      const res = await postFile(
        scene,
        '/account?index',
        'avatar',
        new File([bytes], 'holiday.png', { type: 'image/png' }),
      );
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/account');
      expect(res.headers.get('set-cookie')).toMatch(/(^|, )crewboard_flash=/);
      const [profile] = await sql<{ avatar_path: string }>(
        'select avatar_path from public.profiles where id = $1',
        [userId],
      );
      expect(profile?.avatar_path).toMatch(new RegExp(`^${userId}/[0-9a-f-]{36}\\.${EXTENSION[type]}$`));
      const [object] = await sql<{ mimetype: string }>(
        "select metadata->>'mimetype' as mimetype from storage.objects where bucket_id = 'avatars' and name = $1",
        [profile?.avatar_path],
      );
      expect(object?.mimetype).toBe(type);
      const served = await fetch(
        `${backend().apiUrl}/storage/v1/object/public/avatars/${profile?.avatar_path}`,
      );
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(type);
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    },
  );

  it.each([
    ['a RIFF file that is not WebP (WAVE)', Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1')],
    ['a GIF signature of no GIF version', Buffer.from('GIF88a\x01\x00\x01\x00', 'latin1')],
    ['two bytes of a JPEG signature', Buffer.from([0xff, 0xd8, 0x00, 0x10])],
    ['text named .jpg', Buffer.from('not a picture at all')],
  ])('%s is refused with the catalogue message, and nothing is stored', async (_what, bytes) => {
    const before = await sql(
      "select name from storage.objects where bucket_id = 'avatars' and name like $1",
      [`${userId}/%`],
    );
    const res = await postFile(
      scene,
      '/account?index',
      'avatar',
      new File([bytes], 'me.jpg', { type: 'image/jpeg' }),
    );
    expect(res.status).toBe(415);
    expect(await res.text()).toContain('That file type isn&#x27;t allowed here.');
    const after = await sql("select name from storage.objects where bucket_id = 'avatars' and name like $1", [
      `${userId}/%`,
    ]);
    expect(after).toEqual(before);
  });
});

describe('deleting a workspace', () => {
  it('deletes its attachments’ files from storage, and nothing of another workspace', async () => {
    const doomed = await createAppScene(app, backend(), 'doomed');
    const kept = await createAppScene(app, backend(), 'kept');
    for (const scene of [doomed, kept]) {
      const created = await postForm(
        app,
        scene.projectPath,
        { intent: 'create', title: 'With files', status: scene.todo, key: randomUUID() },
        scene.cookie,
      );
      expect(created.status).toBe(302);
      for (const name of ['one.txt', 'two.pdf']) {
        const attached = await postFile(
          scene,
          `${scene.projectPath}/t/1`,
          'file',
          new File([`contents of ${name}`], name, { type: 'text/plain' }),
        );
        expect(attached.status).toBe(302);
      }
    }
    const workspaceId = async (slug: string) =>
      (await sql<{ id: string }>('select id from public.workspaces where slug = $1', [slug]))[0]?.id ?? '';
    const doomedId = await workspaceId(doomed.workspace);
    const keptId = await workspaceId(kept.workspace);
    const filesOf = (id: string) =>
      sql<{ name: string }>(
        "select name from storage.objects where bucket_id = 'attachments' and name like $1",
        [`${id}/%`],
      );
    const doomedFiles = (await filesOf(doomedId)).map((o) => o.name);
    expect(doomedFiles).toHaveLength(2);
    expect(await filesOf(keptId)).toHaveLength(2);

    const name = (
      await sql<{ name: string }>('select name from public.workspaces where id = $1', [doomedId])
    )[0]?.name;
    const deleted = await postForm(
      app,
      `/w/${doomed.workspace}/settings`,
      { intent: 'delete', confirm: name },
      doomed.cookie,
    );
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get('location')).toBe('/w');

    // Gone by the time the app answered: no object row, no file behind the Storage API, no trash left.
    expect(await filesOf(doomedId)).toEqual([]);
    for (const path of doomedFiles) {
      const download = await adminClient().storage.from('attachments').download(path);
      expect(download.error).not.toBeNull();
    }
    expect(await sql('select * from private.storage_trash where name like $1', [`${doomedId}/%`])).toEqual(
      [],
    );
    expect(await filesOf(keptId)).toHaveLength(2);
  });
});
