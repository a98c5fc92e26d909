import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseImportFile } from './file.server.ts';
import type { ProjectSide } from './plan.server.ts';
import { planImport } from './plan.server.ts';
import type { ParsedFile } from './rows.server.ts';

function parsed(bytes: Uint8Array | string): ParsedFile {
  const result = parseImportFile(typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes);
  if (!result.ok) throw new Error(result.message);
  return result.file;
}

const side = (overrides: Partial<ProjectSide> = {}): ProjectSide => ({
  workspaceId: 'ws',
  statuses: [{ name: 'Backlog' }, { name: 'To do' }, { name: 'In progress' }, { name: 'Done' }],
  labels: [{ name: 'Bug' }],
  members: [
    { id: 'ana-id', name: 'Ana Lima' },
    { id: 'bo-1', name: 'Bo' },
    { id: 'bo-2', name: 'Bo' },
  ],
  emails: new Map([['ana@example.test', 'ana-id']]),
  ...overrides,
});

describe('planning an import into a project', () => {
  it('matches a Trello board’s lists, labels and members, and makes what is missing', () => {
    const board = readFileSync(new URL('./fixtures/trello-board.json', import.meta.url));
    const plan = planImport(parsed(board), 'board.json', side());
    expect(plan.statuses).toEqual([
      { name: 'Doing', category: 'started' },
      { name: 'Shipped', category: 'completed' },
    ]);
    expect(plan.labels).toEqual([
      { name: 'Design', color: 'teal' },
      { name: 'Green', color: 'green' },
    ]);
    expect(plan.tasks.map((t) => [t.title, t.status, t.assignee_id, t.labels])).toEqual([
      ['New logo', 'To do', null, ['Design', 'Green']],
      ['Fix login on Safari', 'Doing', 'ana-id', ['Bug']],
      ['Release 1.0', 'Shipped', null, []],
    ]);
    expect(plan.preview).toMatchObject({
      source: 'Trello',
      tasks: 3,
      comments: 2,
      newStatuses: ['Doing', 'Shipped'],
    });
  });

  it('maps a status to the first one when the project has 50, and leaves labels off past 200', () => {
    const full = side({
      statuses: Array.from({ length: 50 }, (_, i) => ({ name: `S${i}` })),
      labels: Array.from({ length: 200 }, (_, i) => ({ name: `L${i}` })),
    });
    const plan = planImport(parsed('title,status,labels\nA,Review,"L1, New"\n'), 'a.csv', full);
    expect(plan.statuses).toEqual([]);
    expect(plan.tasks[0]).toMatchObject({ status: 'S0', labels: ['L1'] });
    expect(plan.preview.mappedStatuses).toEqual([{ name: 'Review', to: 'S0' }]);
    expect(plan.preview.droppedLabels).toEqual(['New']);
  });

  it('assigns by a member’s name or email, and leaves unknown or ambiguous names unassigned', () => {
    const plan = planImport(
      parsed('title,assignee\nA,ana lima\nB,ANA@example.test\nC,Bo\nD,Nobody\n'),
      'a.csv',
      side(),
    );
    expect(plan.tasks.map((t) => t.assignee_id)).toEqual(['ana-id', 'ana-id', null, null]);
    expect(plan.preview.unassigned).toEqual(['Bo', 'Nobody']);
  });
});
