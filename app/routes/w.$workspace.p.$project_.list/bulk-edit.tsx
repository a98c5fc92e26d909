// The list's bulk edit: the fields that set status, priority or assignee on every ticked task (or move
// them to the trash), and what the edit did. They are part of the list's one form (list-table.tsx), so
// an edit is one request with JavaScript or without.
import type { BoardStatus } from '~/utils/board.ts';
import { MAX_BULK_EDIT } from '~/utils/list.ts';
import { TASK_PRIORITIES } from '~/utils/workspace-schemas.ts';
import type { BulkReply } from './bulk-edit.server.ts';

export const priorityName = (p: string) => (p === 'none' ? 'No priority' : p[0]?.toUpperCase() + p.slice(1));
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One field of the bulk edit: "Keep" (no change), or a value to set on every ticked task. */
function SetChoice({
  label,
  name,
  choices,
}: {
  label: string;
  name: string;
  choices: Array<{ value: string; name: string }>;
}) {
  return (
    <label className="bulk-control flex items-center gap-1.5 text-slate-700">
      {label}
      <select name={name} defaultValue="" className="filter-control">
        <option value="">Keep</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** What a bulk edit did, said once in a live region: how many changed, how many were refused. */
export function BulkMessage({ reply }: { reply: BulkReply | undefined }) {
  if (!reply) return <p role="status" className="sr-only" />;
  if ('bulkError' in reply)
    return (
      <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
        {reply.bulkError}
      </p>
    );
  const { changed, refused, trashed } = reply.bulk;
  const done = trashed ? 'moved to the trash' : 'changed';
  const text =
    changed === 0
      ? `Nothing was ${done}: you may not change ${refused === 1 ? 'that task' : `those ${refused} tasks`}.`
      : `${plural(changed, 'task')} ${done}.` +
        (refused > 0
          ? ` ${plural(refused, 'task was', 'tasks were')} refused: you may not change them.`
          : '');
  return (
    <p
      role="status"
      className={`mt-3 rounded-md px-3 py-2 text-sm ${changed === 0 ? 'bg-amber-50 text-amber-900' : 'bg-emerald-50 text-emerald-900'}`}
    >
      {text}
    </p>
  );
}

/**
 * The bulk edit's fields, above the list's rows; `ticked` says how many rows are ticked (JavaScript).
 * With rows ticked they stay in view as the list scrolls; on a phone they show only then.
 */
export function BulkEditFields({
  statuses,
  people,
  ticked,
  busy,
  canTrash,
}: {
  statuses: BoardStatus[];
  people: Array<{ id: string; name: string }>;
  ticked: number;
  busy: boolean;
  canTrash: boolean;
}) {
  return (
    <fieldset
      className={`mb-2 flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md bg-slate-50 p-2 text-sm ${
        ticked === 0 ? 'bulk-idle' : 'sticky top-0 z-10 shadow-md ring-1 ring-slate-200'
      }`}
    >
      <legend className="sr-only">Change the ticked tasks</legend>
      <span className="js-only text-slate-700" aria-live="polite">
        {ticked === 0 ? 'Tick tasks to change them together' : `${plural(ticked, 'task')} ticked`}
      </span>
      <SetChoice
        label="Status"
        name="status"
        choices={statuses.map((s) => ({ value: s.id, name: s.name }))}
      />
      <SetChoice
        label="Priority"
        name="priority"
        choices={[...TASK_PRIORITIES].reverse().map((p) => ({ value: p, name: priorityName(p) }))}
      />
      <SetChoice
        label="Assignee"
        name="assignee"
        choices={[{ value: 'none', name: 'Nobody' }, ...people.map((p) => ({ value: p.id, name: p.name }))]}
      />
      <button
        type="submit"
        name="intent"
        value="bulk-edit"
        disabled={busy}
        className="bulk-control rounded-md bg-indigo-600 px-3 py-1 font-medium text-white hover:bg-indigo-700 disabled:opacity-60"
      >
        Apply to ticked tasks
      </button>
      {canTrash ? (
        <button
          type="submit"
          name="intent"
          value="bulk-trash"
          disabled={busy}
          className="bulk-control rounded-md border border-red-300 px-3 py-1 font-medium text-red-800 hover:bg-red-50"
        >
          Move ticked tasks to the trash
        </button>
      ) : null}
      <span className="bulk-control text-xs text-slate-600">At most {MAX_BULK_EDIT} at once.</span>
    </fieldset>
  );
}
