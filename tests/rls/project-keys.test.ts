// Project keys: unique within a workspace, free to repeat across workspaces, given from the
// name when none is sent, fixed once made; and finding a board by its key tells an outsider nothing.
import { describe, expect, it } from 'vitest';
import { scene, type Person } from '../support/scene.ts';

const newProject = (who: Person, ws: string, name: string, key?: string) =>
  who.client
    .from('projects')
    .insert({ workspace_id: ws, name, ...(key === undefined ? {} : { key }) })
    .select('id, key')
    .single();

describe('project keys', () => {
  it('are given from the name when none is sent, counting up past keys already used', async () => {
    const cast = await scene();
    const { data: launch } = await cast.admin.client
      .from('projects')
      .select('key')
      .eq('id', cast.project)
      .single();
    expect(launch?.key).toBe('LAU');
    const again = await newProject(cast.admin, cast.ws, 'Launch party');
    expect(again.error).toBeNull();
    expect(again.data?.key).toBe('LAU2');
  });

  it('are unique within a workspace and may repeat in another', async () => {
    const here = await scene();
    const there = await scene();
    expect((await newProject(here.admin, here.ws, 'Web', 'WEB')).error).toBeNull();
    const clash = await newProject(here.admin, here.ws, 'Website', 'WEB');
    expect(clash.error?.code).toBe('23505');
    expect((await newProject(there.admin, there.ws, 'Website', 'WEB')).error).toBeNull();
  });

  it('must look like a key', async () => {
    const cast = await scene();
    for (const key of ['web', 'W', '1WEB', 'WEB-1', 'ABCDEFGHIJK'])
      expect((await newProject(cast.admin, cast.ws, 'Bad', key)).error?.code, key).toBe('23514');
  });

  it('cannot be changed once the project is made', async () => {
    const cast = await scene();
    const { error } = await cast.admin.client.from('projects').update({ key: 'NEW' }).eq('id', cast.project);
    expect(error?.code).toBe('42501');
  });

  it('find a board for its members, and nothing for anyone else, whether it exists or not', async () => {
    const cast = await scene();
    const { data: slugRow } = await cast.owner.client
      .from('workspaces')
      .select('slug')
      .eq('id', cast.ws)
      .single();
    const slug = slugRow?.slug ?? '';
    const board = (who: Person, key: string) =>
      who.client.rpc('board_page', { workspace_slug: slug, project_key: key, shown: {} });
    const mine = await board(cast.viewer, 'lau');
    expect(mine.error).toBeNull();
    expect((mine.data as { project: { id: string; key: string } | null }).project).toMatchObject({
      id: cast.project,
      key: 'LAU',
    });
    // An outsider asking for the real key and for one that does not exist gets the same answer.
    const real = await board(cast.outsider, 'lau');
    const missing = await board(cast.outsider, 'zzz');
    expect(real.error).toBeNull();
    expect(real.data).toEqual(missing.data);
    expect(real.data).toMatchObject({ membership: null, project: null });
    // Nor can they read the project's row by key.
    const row = await cast.outsider.client
      .from('projects')
      .select('id')
      .eq('key', 'LAU')
      .eq('workspace_id', cast.ws);
    expect(row.data).toEqual([]);
  });
});
