// Checklists (migrations 20261129300000 and 20261129300100): public.checklist_items numbers a
// description's items exactly as the panel's renderer does (app/utils/markdown-rules.ts), a tick
// changes only its item's box and is refused when the item's text changed, RLS decides who may
// tick, two ticks of different items at once both land, and the board's cards count the items.
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { checklistItems } from '../../app/utils/markdown-rules.ts';
import { superuserDb, useDb, waitsOnLock } from '../support/db.ts';
import { claimsOf, scene, type Scene } from '../support/scene.ts';

const db = useDb();
let cast: Scene;
let key: string;

const DESCRIPTION = [
  'Plan:',
  '- [ ] write tests',
  '- [ ] ship it',
  '```',
  '- [ ] not an item',
  '```',
  '1. [x] agree',
].join('\n');

async function description(): Promise<string> {
  const { rows } = await db().query<{ description: string }>(
    'select description from public.tasks where id = $1',
    [cast.task],
  );
  return rows[0]!.description;
}

async function setDescription(text: string) {
  const { error } = await cast.member.client.from('tasks').update({ description: text }).eq('id', cast.task);
  if (error) throw error;
}

async function cardChecklist(): Promise<unknown> {
  const { data, error } = await cast.member.client.rpc('board_page', {
    workspace_slug: cast.slug,
    project_key: key.toLowerCase(),
  });
  if (error) throw error;
  const board = data as { columns: Array<{ tasks: Array<{ id: string; checklist: unknown }> }> };
  return board.columns.flatMap((c) => c.tasks).find((t) => t.id === cast.task)?.checklist;
}

beforeAll(async () => {
  cast = await scene();
  const { rows } = await db().query<{ key: string }>('select key from public.projects where id = $1', [
    cast.project,
  ]);
  key = rows[0]!.key;
});

describe('public.checklist_items', () => {
  const samples = [
    DESCRIPTION,
    '- [ ] a\r\n* [X] b\r\n  + [x] c\r\n2) [ ] d\r\n',
    '~~~~\n- [ ] in\n~~~\n- [ ] still in\n~~~~~ \n- [ ] out\n```\n- [ ] in\n``` x\n- [ ] in too',
    '   ```\n- [ ] fenced by three spaces\n```\n    ```\n- [ ] after an indented fence',
    '- [y] no\n- [] no\n- [ ]no\n[ ] no\n-  [x]   spaced out  \n- [ ] ',
    '',
  ];

  it.each(samples.map((s, i) => [i, s] as const))(
    'numbers sample %i as the renderer does',
    async (_i, text) => {
      const { rows } = await db().query<{ n: number; line: number; checked: boolean; item_text: string }>(
        'select n, line, checked, item_text from public.checklist_items($1)',
        [text],
      );
      expect(rows.map((r) => ({ n: r.n, line: r.line, checked: r.checked, text: r.item_text }))).toEqual(
        checklistItems(text),
      );
    },
  );
});

describe('ticking an item', () => {
  beforeAll(() => setDescription(DESCRIPTION));

  it('changes only that box, and the card counts the items', async () => {
    expect(await cardChecklist()).toEqual({ done: 1, total: 3 });
    const { error } = await cast.member.client.rpc('tick_checklist_item', {
      task_id: cast.task,
      item: 2,
      checked: true,
      item_text: 'ship it',
    });
    expect(error).toBeNull();
    expect(await description()).toBe(DESCRIPTION.replace('- [ ] ship it', '- [x] ship it'));
    expect(await cardChecklist()).toEqual({ done: 2, total: 3 });
    const untick = await cast.member.client.rpc('tick_checklist_item', {
      task_id: cast.task,
      item: 3,
      checked: false,
      item_text: 'agree',
    });
    expect(untick.error).toBeNull();
    expect(await description()).toBe(
      DESCRIPTION.replace('- [ ] ship it', '- [x] ship it').replace('1. [x] agree', '1. [ ] agree'),
    );
    expect(await cardChecklist()).toEqual({ done: 1, total: 3 });
  });

  it('is refused with 409 when the item is gone or has other words, changing nothing', async () => {
    const before = await description();
    for (const [item, text] of [
      [1, 'write the tests'],
      [4, 'not an item'],
      [9, 'write tests'],
    ] as const) {
      const { error, status } = await cast.member.client.rpc('tick_checklist_item', {
        task_id: cast.task,
        item,
        checked: true,
        item_text: text,
      });
      expect(status).toBe(409);
      expect(error?.message).toMatch(/changed since the page was shown/);
    }
    expect(await description()).toBe(before);
  });

  it('is refused to a viewer and an outsider', async () => {
    const before = await description();
    const viewer = await cast.viewer.client.rpc('tick_checklist_item', {
      task_id: cast.task,
      item: 1,
      checked: true,
      item_text: 'write tests',
    });
    expect(viewer.error?.code).toBe('42501');
    const outsider = await cast.outsider.client.rpc('tick_checklist_item', {
      task_id: cast.task,
      item: 1,
      checked: true,
      item_text: 'write tests',
    });
    expect(outsider.error?.code).toBe('P0002');
    expect(await description()).toBe(before);
  });

  it('keeps both of two ticks of different items made at once', async () => {
    await setDescription(DESCRIPTION);
    const [one, two] = [superuserDb(), superuserDb()];
    await Promise.all([one.connect(), two.connect()]);
    const asPerson = async (client: pg.Client, claims: Record<string, unknown>) => {
      await client.query('begin');
      await client.query('set local role authenticated');
      await client.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claims)]);
    };
    try {
      await asPerson(one, await claimsOf(cast.member));
      await asPerson(two, await claimsOf(cast.other));
      const twoPid = (await two.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
      await one.query('select public.tick_checklist_item($1, 1, true, $2)', [cast.task, 'write tests']);
      // The second tick waits for the first's row lock, then ticks the row the first wrote.
      const second = two.query('select public.tick_checklist_item($1, 2, true, $2)', [cast.task, 'ship it']);
      expect(await waitsOnLock(db(), twoPid), 'the second tick waits for the first').toBe(true);
      await one.query('commit');
      await second;
      await two.query('commit');
    } finally {
      await Promise.all([one.end(), two.end()]);
    }
    expect(await description()).toBe(
      DESCRIPTION.replace('- [ ] write tests', '- [x] write tests').replace('- [ ] ship it', '- [x] ship it'),
    );
    expect(await cardChecklist()).toEqual({ done: 3, total: 3 });
  });
});
