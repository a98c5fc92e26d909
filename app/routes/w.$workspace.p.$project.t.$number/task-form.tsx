import { Form } from '@remix-run/react';
import { ErrorList, Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { getFormProps, getInputProps, getSelectProps, getTextareaProps } from '~/components/schema-form.ts';
import type { BoardStatus, Status } from '~/utils/board.ts';
import { TASK_PRIORITIES, TaskEditSchema } from '~/utils/workspace-schemas.ts';

/** The classes of the panel's own fields (text areas and selects; `Field` styles its inputs). */
export const CONTROL =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base sm:text-sm';

export interface EditableTask {
  title: string;
  description: string;
  status: Status;
  priority: (typeof TASK_PRIORITIES)[number];
  assignee_id: string | null;
  due_date: string | null;
}

/**
 * The task's fields, for those who may change them. A field here is a key of TaskEditSchema
 * (app/utils/workspace-schemas.ts), a column `saveTask` writes (edit-task.server.ts) and one the
 * loader selects (task.server.ts).
 */
export function TaskForm({
  task,
  statuses,
  members,
  lastResult,
}: {
  task: EditableTask;
  /** The project's statuses, in board order. */
  statuses: BoardStatus[];
  members: Array<{ id: string; name: string }>;
  lastResult: Parameters<typeof useSchemaForm>[2];
}) {
  const [form, fields] = useSchemaForm('task', TaskEditSchema, lastResult, {
    title: task.title,
    description: task.description,
    status: task.status,
    priority: task.priority,
    assignee: task.assignee_id ?? '',
    dueDate: task.due_date ?? '',
  });
  return (
    <Form method="post" {...getFormProps(form)} className="mt-3 space-y-4">
      {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <Field label="Title" field={fields.title} type="text" />
      <div>
        <label htmlFor={fields.description.id} className="block text-sm font-medium">
          Description
        </label>
        <textarea {...getTextareaProps(fields.description)} rows={6} className={CONTROL} />
        <ErrorList id={fields.description.errorId} errors={fields.description.errors} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={fields.status.id} className="block text-sm font-medium">
            Status
          </label>
          <select {...getSelectProps(fields.status)} className={CONTROL}>
            {statuses.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          <ErrorList id={fields.status.errorId} errors={fields.status.errors} />
        </div>
        <div>
          <label htmlFor={fields.priority.id} className="block text-sm font-medium">
            Priority
          </label>
          <select {...getSelectProps(fields.priority)} className={CONTROL}>
            {TASK_PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {p === 'none' ? 'None' : p[0]?.toUpperCase() + p.slice(1)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={fields.assignee.id} className="block text-sm font-medium">
            Assignee
          </label>
          <select {...getSelectProps(fields.assignee)} className={CONTROL}>
            <option value="">Unassigned</option>
            {members.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
          <ErrorList id={fields.assignee.errorId} errors={fields.assignee.errors} />
        </div>
        <div>
          <label htmlFor={fields.dueDate.id} className="block text-sm font-medium">
            Due date
          </label>
          <input {...getInputProps(fields.dueDate, { type: 'date' })} className={CONTROL} />
          <ErrorList id={fields.dueDate.errorId} errors={fields.dueDate.errors} />
        </div>
      </div>
      <SubmitButton name="intent" value="save">
        Save task
      </SubmitButton>
    </Form>
  );
}
