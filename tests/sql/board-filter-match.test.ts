// The browser's rule for a board's filters (app/utils/filter-match.ts, which the open board uses to
// place a card another person changed) agrees with board_content's `matching` CTE: for every filter
// here, the cards board_page draws are the tasks the rule says match, and the columns' counts follow.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Filters, StatusCategory } from '../../app/utils/board.ts';
import { boardFilterText, matchesFilters, type FilterableTask } from '../../app/utils/filter-match.ts';
import { defaultStatuses, scene, type Scene } from '../support/scene.ts';

type Column = { id: string; category: StatusCategory; count: number; tasks: Array<{ id: string }> };
type Task = FilterableTask & { id: string; status: string };

const TODAY = '2026-11-25';
let cast: Scene;
let key: string;
let tasks: Task[];
let categories: Map<string, StatusCategory>;

async function must<T>(query: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await query;
  if (error) throw error;
  return data;
}

async function board(filters: Filters): Promise<Column[]> {
  const data = (await must(
    cast.member.client.rpc('board_page', {
      workspace_slug: cast.slug,
      project_key: key.toLowerCase(),
      shown: {},
      filters: { ...filters, q: boardFilterText(filters.q, key), today: TODAY },
    }),
  )) as { columns: Column[] | null };
  return data.columns ?? [];
}

beforeAll(async () => {
  cast = await scene();
  key = (
    (await must(cast.admin.client.from('projects').select('key').eq('id', cast.project).single())) as {
      key: string;
    }
  ).key;
  const columns = await defaultStatuses(cast.project);
  const statuses = [columns.backlog, columns.todo, columns.in_progress, columns.done];
  const titles = [
    'Fix the Logo',
    '100% done',
    'under_score',
    'Follow up on #7',
    `${key}-2 notes`,
    'Café menu',
  ];
  const assignees = [cast.member.id, cast.other.id, null];
  const priorities = ['high', 'low', 'none'] as const;
  const dues = ['2026-11-24', TODAY, '2026-12-01', '2026-12-02', null];
  const rows = Array.from({ length: 24 }, (_, i) => ({
    workspace_id: cast.ws,
    project_id: cast.project,
    title: titles[i % titles.length] ?? '',
    status_id: statuses[i % statuses.length] ?? '',
    assignee_id: assignees[i % assignees.length] ?? null,
    priority: priorities[(i >> 1) % priorities.length] ?? 'none',
    due_date: dues[i % dues.length] ?? null,
  }));
  await must(cast.member.client.from('tasks').insert(rows));
  const read = (await must(
    cast.member.client
      .from('tasks')
      .select('id, number, title, status_id, priority, due_date, assignee_id')
      .eq('project_id', cast.project),
  )) as Array<{
    id: string;
    number: number;
    title: string;
    status_id: string;
    priority: Task['priority'];
    due_date: string | null;
    assignee_id: string | null;
  }>;
  tasks = read.map((t) => ({
    id: t.id,
    number: t.number,
    title: t.title,
    status: t.status_id,
    priority: t.priority,
    due: t.due_date,
    assignee: t.assignee_id,
    labels: [],
  }));
  categories = new Map((await board({ priority: 'high' })).map((c) => [c.id, c.category]));
});

const FILTERS: Filters[] = [
  { assignee: 'me' },
  { assignee: 'none' },
  { priority: 'high' },
  { priority: 'none', assignee: 'none' },
  { due: 'overdue' },
  { due: 'week' },
  { due: 'week', priority: 'low' },
  { q: 'logo' },
  { q: 'FIX THE' },
  { q: '%' },
  { q: '_' },
  { q: '0% d' },
  { q: '7' },
  { q: '#7' },
  { q: '##12' },
  { q: 'x-7' },
  { q: 'no such words' },
  { q: 'menu' },
  { q: 'logo', due: 'overdue', assignee: 'me' },
];

describe("the browser's filter rule", () => {
  it.each(FILTERS)('matches the cards board_content draws for %o', async (filters) => {
    const columns = await board(filters);
    const scope = { me: cast.member.id, today: TODAY, projectKey: key };
    const verdicts = tasks.map((task) => {
      const category = categories.get(task.status) ?? 'backlog';
      return { task, matches: matchesFilters(filters, task, category, scope) };
    });
    // Every task here is one the rule can decide (its letters outside ASCII are never folded).
    expect(verdicts.filter((v) => v.matches === null)).toEqual([]);
    const drawn = columns.flatMap((c) => c.tasks.map((t) => t.id)).sort();
    const matching = verdicts.filter((v) => v.matches).map((v) => v.task.id);
    expect(drawn).toEqual([...matching].sort());
    for (const column of columns)
      expect(column.count).toBe(verdicts.filter((v) => v.matches && v.task.status === column.id).length);
  });

  it('reads this board’s key as the task’s number', async () => {
    const second = tasks.find((t) => t.number === 2);
    const columns = await board({ q: `${key}-2` });
    expect(columns.flatMap((c) => c.tasks.map((t) => t.id))).toEqual([second?.id]);
    const scope = { me: cast.member.id, today: TODAY, projectKey: key };
    const matching = tasks.filter((t) => matchesFilters({ q: `${key}-2` }, t, 'backlog', scope));
    expect(matching.map((t) => t.id)).toEqual([second?.id]);
  });
});
