import { describe, expect, it } from 'vitest';
import { placeStatus } from './place-status.ts';

const order = (statuses: Array<{ id: string }>) => statuses.map((s) => s.id).join(' ');

describe('placeStatus', () => {
  const statuses = ['backlog', 'todo', 'doing', 'done'].map((id) => ({ id }));

  it('drops a status at a place, counted without it', () => {
    expect(order(placeStatus(statuses, 'done', 2))).toBe('backlog todo done doing');
    expect(order(placeStatus(statuses, 'backlog', 3))).toBe('todo doing done backlog');
    expect(order(placeStatus(statuses, 'doing', 0))).toBe('doing backlog todo done');
  });

  it('clamps a place past either end, and leaves the order alone for a status it does not know', () => {
    expect(order(placeStatus(statuses, 'todo', 99))).toBe('backlog doing done todo');
    expect(order(placeStatus(statuses, 'todo', -4))).toBe('todo backlog doing done');
    expect(placeStatus(statuses, 'nope', 1)).toBe(statuses);
  });
});
