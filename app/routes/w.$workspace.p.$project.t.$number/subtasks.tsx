import { Form, Link } from '@remix-run/react';
import { ErrorList } from '~/components/forms.tsx';
import { SIDE_BUTTON, TaskLine, TextField } from './links.tsx';
import type { StructureReply, TaskStructure } from './structure.server.ts';

/** "Sub-task of WEB-3 Title", at the top of a sub-task's panel. */
export function ParentLink({ parent }: { parent: TaskStructure['parent'] }) {
  if (!parent) return null;
  return (
    <p className="mt-1 text-sm text-slate-600">
      Sub-task of{' '}
      <Link to={parent.href} className="font-medium text-indigo-700 hover:underline">
        {parent.ref} {parent.title}
      </Link>
    </p>
  );
}

/**
 * The task's sub-tasks with their status and progress (done = a `completed` status; canceled ones
 * count in neither number, as on the card), the form to add one, and the task's own parent: set by
 * key or cleared. A sub-task has no sub-tasks, and a task with sub-tasks no parent (one level), so
 * each form shows only where it can work. Plain forms: the same with and without JavaScript.
 */
export function Subtasks({
  parent,
  subtasks,
  canEdit,
  reply,
}: {
  parent: TaskStructure['parent'];
  subtasks: TaskStructure['subtasks'];
  canEdit: boolean;
  reply: StructureReply | null;
}) {
  const counted = subtasks.filter((t) => t.category !== 'canceled');
  const done = counted.filter((t) => t.category === 'completed').length;
  const addError = reply?.intent === 'add-subtask' ? reply.structureError : null;
  const parentError = reply?.intent === 'set-parent' ? reply.structureError : null;
  return (
    <section aria-labelledby="subtasks-title" className="mt-6">
      <h2 id="subtasks-title" className="text-base font-semibold">
        Sub-tasks
        {counted.length > 0 ? (
          <span className="ml-2 text-sm font-normal text-slate-600">
            {done}/{counted.length} done
          </span>
        ) : null}
      </h2>
      {subtasks.length > 0 ? (
        <ul aria-label="Sub-tasks" className="mt-2 space-y-1 text-sm">
          {subtasks.map((t) => (
            <li key={t.id}>
              <TaskLine task={t} />
            </li>
          ))}
        </ul>
      ) : parent ? null : (
        <p className="mt-2 text-sm text-slate-600">No sub-tasks.</p>
      )}
      {canEdit && !parent ? (
        <Form method="post" preventScrollReset className="mt-3 flex items-end gap-2" key={subtasks.length}>
          <TextField
            id="subtask-title"
            name="title"
            label="New sub-task"
            maxLength={200}
            typed={reply?.intent === 'add-subtask' ? reply.values.title : undefined}
            error={addError}
          />
          <button type="submit" name="intent" value="add-subtask" className={SIDE_BUTTON}>
            Add sub-task
          </button>
        </Form>
      ) : null}
      <ErrorList id="subtask-title-error" errors={addError ? [addError] : null} />
      {canEdit && parent ? (
        <Form method="post" preventScrollReset className="mt-3">
          <button type="submit" name="intent" value="clear-parent" className={SIDE_BUTTON}>
            Make it a task of its own
          </button>
          <ErrorList errors={parentError ? [parentError] : null} />
        </Form>
      ) : null}
      {canEdit && !parent && subtasks.length === 0 ? (
        <Form method="post" preventScrollReset className="mt-3 flex items-end gap-2">
          <TextField
            id="parent-task"
            name="parent"
            label="Make it a sub-task of"
            placeholder="WEB-12"
            typed={reply?.intent === 'set-parent' ? reply.values.parent : undefined}
            error={parentError}
          />
          <button type="submit" name="intent" value="set-parent" className={SIDE_BUTTON}>
            Set parent
          </button>
        </Form>
      ) : null}
      {!parent ? <ErrorList id="parent-task-error" errors={parentError ? [parentError] : null} /> : null}
    </section>
  );
}
