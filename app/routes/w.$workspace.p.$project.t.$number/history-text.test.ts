import { describe, expect, it } from 'vitest';
import { changeText, describeChange } from './history-text.ts';

const say = (kind: string, data: unknown) => changeText(describeChange(kind, data));

describe('describeChange', () => {
  it('says every kind the database writes', () => {
    expect(say('created', {})).toBe('created the task');
    expect(say('title', { from: 'Ship it', to: 'Ship it now' })).toBe(
      'renamed the task from Ship it to Ship it now',
    );
    expect(say('status', { from: { id: 's1', name: 'To do' }, to: { id: 's2', name: 'Done' } })).toBe(
      'moved the task from To do to Done',
    );
    expect(say('assignee', { from: null, to: { id: 'u1', name: 'Ada' } })).toBe('assigned the task to Ada');
    expect(say('assignee', { from: { id: 'u1', name: 'Ada' }, to: { id: 'u2', name: 'Bob' } })).toBe(
      'reassigned the task from Ada to Bob',
    );
    expect(say('assignee', { from: { id: 'u1', name: 'Ada' }, to: null })).toBe('unassigned Ada');
    expect(say('priority', { from: 'none', to: 'high' })).toBe(
      'changed the priority from no priority to high',
    );
    expect(say('due_date', { from: null, to: '2026-12-24' })).toBe('set the due date to 24 Dec 2026');
    expect(say('due_date', { from: '2026-12-24', to: '2027-01-02' })).toBe(
      'changed the due date from 24 Dec 2026 to 2 Jan 2027',
    );
    expect(say('due_date', { from: '2026-12-24', to: null })).toBe('removed the due date 24 Dec 2026');
    expect(say('label_added', { id: 'l1', name: 'Backend', color: 'teal' })).toBe('added the label Backend');
    expect(say('label_removed', { id: 'l1', name: 'Backend', color: 'teal' })).toBe(
      'removed the label Backend',
    );
    const web3 = { id: 't3', ref: 'WEB-3', title: 'Launch' };
    const web4 = { id: 't4', ref: 'WEB-4', title: 'Press kit' };
    expect(say('parent', { from: null, to: web3 })).toBe('made the task a sub-task of WEB-3 Launch');
    expect(say('parent', { from: web3, to: null })).toBe('took the task out from under WEB-3 Launch');
    expect(say('parent', { from: web3, to: web4 })).toBe(
      'moved the task from under WEB-3 Launch to under WEB-4 Press kit',
    );
    expect(say('link_added', { type: 'blocks', other: web4 })).toBe(
      'marked the task as blocking WEB-4 Press kit',
    );
    expect(say('link_added', { type: 'blocked_by', other: web4 })).toBe(
      'marked the task as blocked by WEB-4 Press kit',
    );
    expect(say('link_added', { type: 'relates', other: web4 })).toBe(
      'marked the task as related to WEB-4 Press kit',
    );
    expect(say('link_added', { type: 'duplicate_of', other: web4 })).toBe(
      'marked the task as a duplicate of WEB-4 Press kit',
    );
    expect(say('link_removed', { type: 'duplicated_by', other: web4 })).toBe(
      'no longer marks the task as duplicated by WEB-4 Press kit',
    );
    expect(say('deleted', {})).toBe('deleted the task');
    expect(say('restored', {})).toBe('restored the task');
    expect(say('imported', { source: 'Trello' })).toBe('imported the task from Trello');
  });

  it('names another task by a link to its key', () => {
    expect(describeChange('parent', { from: null, to: { id: 't3', ref: 'WEB-3', title: 'Launch' } })).toEqual(
      ['made the task a sub-task of ', { task: { ref: 'WEB-3', title: 'Launch' } }],
    );
  });

  it('reads a kind it does not know generically, and data of another shape without failing', () => {
    expect(say('estimate', { from: 1, to: 3 })).toBe('updated the task');
    expect(say('status', null)).toBe('moved the task from no status to no status');
    expect(say('status', { from: { id: 's1' }, to: 'Done' })).toBe(
      'moved the task from a status to no status',
    );
    expect(say('title', [])).toBe('renamed the task from something to something');
    expect(say('due_date', { from: 'soon', to: 42 })).toBe('changed the due date');
    expect(say('link_added', { type: 'follows' })).toBe('marked the task as linked to a task');
    expect(say('assignee', { from: { id: 'u1' }, to: null })).toBe('unassigned someone');
  });
});
