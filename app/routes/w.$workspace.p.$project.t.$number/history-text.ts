// What a history entry says, in words: "moved the task from To do to Done". The entries' data is
// what the database's triggers wrote (supabase/migrations/*_task_history.sql names every kind), read
// defensively: a field missing or of another shape reads as "something", never as an error, and a
// kind this code does not know reads as "updated the task".
// A relative import: unit tests load this file without the app's `~` alias.
import { shortDate } from '../../utils/format.ts';

/** A piece of the sentence: words, a value to stress (a name, a date), or another task by its key. */
export type Part = string | { value: string } | { task: { ref: string; title: string } };

type Data = unknown;

const record = (value: Data): Record<string, unknown> | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** A snapshot's name (`{id, name}`), or null for none. */
const named = (value: unknown, fallback: string): string | null => {
  const r = record(value);
  return r ? (text(r.name) ?? fallback) : null;
};

const stressed = (value: string): Part => ({ value });

/** Another task as an entry names it (`{id, ref, title}`): a link to it when its key is known. */
const task = (value: unknown): Part => {
  const r = record(value);
  const ref = text(r?.ref);
  if (!ref) return stressed('a task');
  return { task: { ref, title: text(r?.title) ?? '' } };
};

/** A priority as the panel shows it. */
const priority = (value: unknown): Part => {
  const p = text(value);
  return stressed(!p || p === 'none' ? 'no priority' : p);
};

const date = (value: unknown): string | null => {
  const d = text(value);
  return d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? shortDate(d) : null;
};

/** How one task stands to another, from this task's side. */
const LINKS: Record<string, string> = {
  blocks: 'blocking',
  blocked_by: 'blocked by',
  relates: 'related to',
  duplicate_of: 'a duplicate of',
  duplicated_by: 'duplicated by',
};

/** The sentence an entry of `kind` with `data` makes after its actor's name. */
export function describeChange(kind: string, data: Data): Part[] {
  const d = record(data) ?? {};
  switch (kind) {
    case 'created':
      return ['created the task'];
    case 'title':
      return [
        'renamed the task from ',
        stressed(text(d.from) ?? 'something'),
        ' to ',
        stressed(text(d.to) ?? 'something'),
      ];
    case 'status':
      return [
        'moved the task from ',
        stressed(named(d.from, 'a status') ?? 'no status'),
        ' to ',
        stressed(named(d.to, 'a status') ?? 'no status'),
      ];
    case 'assignee': {
      const from = named(d.from, 'someone');
      const to = named(d.to, 'someone');
      if (from && to) return ['reassigned the task from ', stressed(from), ' to ', stressed(to)];
      if (to) return ['assigned the task to ', stressed(to)];
      if (from) return ['unassigned ', stressed(from)];
      return ['changed the assignee'];
    }
    case 'priority':
      return ['changed the priority from ', priority(d.from), ' to ', priority(d.to)];
    case 'due_date': {
      const from = date(d.from);
      const to = date(d.to);
      if (from && to) return ['changed the due date from ', stressed(from), ' to ', stressed(to)];
      if (to) return ['set the due date to ', stressed(to)];
      if (from) return ['removed the due date ', stressed(from)];
      return ['changed the due date'];
    }
    case 'label_added':
      return ['added the label ', stressed(text(d.name) ?? 'a label')];
    case 'label_removed':
      return ['removed the label ', stressed(text(d.name) ?? 'a label')];
    case 'parent': {
      const from = record(d.from);
      const to = record(d.to);
      if (from && to) return ['moved the task from under ', task(from), ' to under ', task(to)];
      if (to) return ['made the task a sub-task of ', task(to)];
      if (from) return ['took the task out from under ', task(from)];
      return ['changed the parent task'];
    }
    case 'link_added':
    case 'link_removed': {
      const how = LINKS[text(d.type) ?? ''] ?? 'linked to';
      return [
        kind === 'link_added' ? `marked the task as ${how} ` : `no longer marks the task as ${how} `,
        task(d.other),
      ];
    }
    case 'deleted':
      return ['deleted the task'];
    case 'restored':
      return ['restored the task'];
    case 'imported': {
      const source = text(d.source);
      return source ? ['imported the task from ', stressed(source)] : ['imported the task'];
    }
    default:
      return ['updated the task'];
  }
}

/** The sentence as plain text (tests, and a screen reader's summary). */
export function changeText(parts: Part[]): string {
  return parts
    .map((p) =>
      typeof p === 'string'
        ? p
        : 'value' in p
          ? p.value
          : `${p.task.ref}${p.task.title ? ` ${p.task.title}` : ''}`,
    )
    .join('');
}
