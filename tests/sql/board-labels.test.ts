// Labels on the board (migrations 20261128300000 and 20261128300100): each card carries its labels
// by name, the board filters by label names in any letter case (a task with any of them matches), and
// another workspace's labels never appear on a card nor match a filter.
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, scene, type Scene } from '../support/scene.ts';

type Card = { title: string; labels: Array<{ id: string; name: string; color: string }> };
type Board = { columns: Array<{ count: number; tasks: Card[] }> | null };

let cast: Scene;
let key: string;
const ids: Record<string, string> = {};

async function must<T>(query: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await query;
  if (error) throw error;
  return data;
}

async function board(filters: Record<string, unknown> = {}): Promise<Card[]> {
  const data = (await must(
    cast.member.client.rpc('board_page', {
      workspace_slug: cast.slug,
      project_key: key.toLowerCase(),
      shown: {},
      filters: { today: '2026-11-25', ...filters },
    }),
  )) as Board;
  return (data.columns ?? []).flatMap((column) => column.tasks);
}

const titles = (cards: Card[]) => cards.map((c) => c.title).sort();

beforeAll(async () => {
  cast = await scene();
  const project = await must(
    cast.admin.client.from('projects').select('key').eq('id', cast.project).single(),
  );
  key = (project as { key: string }).key;
  for (const title of ['Fix login', 'Draw logo', 'Plain task']) {
    const task = await must(
      cast.member.client
        .from('tasks')
        .insert({ workspace_id: cast.ws, project_id: cast.project, title })
        .select('id')
        .single(),
    );
    ids[title] = (task as { id: string }).id;
  }
  for (const [name, color] of [
    ['bug', 'red'],
    ['Design', 'purple'],
    ['Backend', 'blue'],
  ]) {
    const label = await must(
      cast.admin.client.from('labels').insert({ workspace_id: cast.ws, name, color }).select('id').single(),
    );
    ids[name as string] = (label as { id: string }).id;
  }
  await must(
    cast.member.client.rpc('set_task_labels', {
      task_id: ids['Fix login'],
      label_ids: [ids.bug, ids.Backend],
    }),
  );
  await must(
    cast.member.client.rpc('set_task_labels', { task_id: ids['Draw logo'], label_ids: [ids.Design] }),
  );

  // Another workspace of the outsider's, with a label of the same name on a task of its own.
  const elsewhere = await createWorkspace(cast.outsider, 'Elsewhere');
  const otherProject = await must(
    cast.outsider.client
      .from('projects')
      .insert({ workspace_id: elsewhere.id, name: 'Theirs' })
      .select('id')
      .single(),
  );
  const otherTask = await must(
    cast.outsider.client
      .from('tasks')
      .insert({
        workspace_id: elsewhere.id,
        project_id: (otherProject as { id: string }).id,
        title: 'Theirs',
      })
      .select('id')
      .single(),
  );
  const otherLabel = await must(
    cast.outsider.client
      .from('labels')
      .insert({ workspace_id: elsewhere.id, name: 'Plain', color: 'gray' })
      .select('id')
      .single(),
  );
  await must(
    cast.outsider.client.from('task_labels').insert({
      workspace_id: elsewhere.id,
      task_id: (otherTask as { id: string }).id,
      label_id: (otherLabel as { id: string }).id,
    }),
  );
});

describe('labels on the board', () => {
  it("shows each card's labels by name, whatever their letter case", async () => {
    const cards = await board();
    const fix = cards.find((c) => c.title === 'Fix login');
    expect(fix?.labels).toEqual([
      { id: ids.Backend, name: 'Backend', color: 'blue' },
      { id: ids.bug, name: 'bug', color: 'red' },
    ]);
    expect(cards.find((c) => c.title === 'Draw logo')?.labels.map((l) => l.name)).toEqual(['Design']);
    expect(cards.find((c) => c.title === 'Plain task')?.labels).toEqual([]);
  });

  it('filters by label names in any letter case, a task with any of them matching', async () => {
    expect(titles(await board({ label: ['BUG'] }))).toEqual(['Fix login']);
    expect(titles(await board({ label: ['bug', 'design'] }))).toEqual(['Draw logo', 'Fix login']);
    expect(titles(await board({ label: ['bug'], q: 'logo' }))).toEqual([]);
    expect(titles(await board({ label: ['no such label'] }))).toEqual([]);
    // Blank names, or a value that is not a list, are no filter at all.
    expect(titles(await board({ label: ['  '] }))).toContain('Plain task');
    expect(titles(await board({ label: 'bug' }))).toContain('Plain task');
  });

  it("never shows or matches another workspace's labels", async () => {
    expect(titles(await board({ label: ['Plain'] }))).toEqual([]);
    const names = (await board()).flatMap((c) => c.labels.map((l) => l.name));
    expect(names).not.toContain('Plain');
  });
});
