import { Form } from '@remix-run/react';
import type { ReactNode } from 'react';
import { ErrorList, Field, FormMessage, useSchemaForm } from '~/components/forms.tsx';
import { getFormProps, getSelectProps } from '~/components/schema-form.ts';
import { CATEGORY_LABELS, STATUS_CATEGORIES, type StatusCategory } from '~/utils/board.ts';
import { DeleteStatusSchema, StatusSchema } from '~/utils/workspace-schemas.ts';
import { replyFor, type IntentReply } from './project-forms.tsx';

export interface SettingsStatus {
  id: string;
  name: string;
  category: StatusCategory;
  /** How many tasks it holds. */
  tasks: number;
}

const BUTTON = 'rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-50 disabled:opacity-40';
const SELECT = 'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base sm:text-sm';

/** A status's category: a select, for adding and changing a status alike. */
export function CategorySelect({ field }: { field: ReturnType<typeof useSchemaForm>[1][string] }) {
  return (
    <div>
      <label htmlFor={field.id} className="label">
        Category
      </label>
      <select {...getSelectProps(field)} className={SELECT}>
        {STATUS_CATEGORIES.map((c) => (
          <option key={c} value={c}>
            {CATEGORY_LABELS[c]}
          </option>
        ))}
      </select>
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/**
 * One status: its name and category (one form), a step up or down, and deleting it — which asks
 * where its tasks go when it holds any. Plain forms; `handle` is the drag handle, with JavaScript.
 */
export function StatusRow({
  status,
  others,
  first,
  last,
  reply,
  handle,
}: {
  status: SettingsStatus;
  /** The project's other statuses: where its tasks may go. */
  others: SettingsStatus[];
  first: boolean;
  last: boolean;
  reply: IntentReply | undefined;
  handle: ReactNode;
}) {
  const [form, fields] = useSchemaForm(
    `status-${status.id}`,
    StatusSchema,
    replyFor(reply, 'edit-status', status.id),
    {
      name: status.name,
      category: status.category,
    },
  );
  const [deleteForm, deleteFields] = useSchemaForm(
    `delete-status-${status.id}`,
    DeleteStatusSchema,
    replyFor(reply, 'delete-status', status.id),
  );
  const held = status.tasks === 1 ? '1 task' : `${status.tasks} tasks`;
  return (
    <div role="group" aria-label={status.name} className="space-y-3 rounded-md border border-slate-200 p-3">
      <div className="flex items-center justify-between gap-2">
        <p className="flex items-center gap-2 text-sm font-medium">
          {handle}
          {status.name} <span className="font-normal text-slate-500">({held})</span>
        </p>
        <Form method="post" className="flex gap-1">
          <input type="hidden" name="intent" value="move-status" />
          <input type="hidden" name="statusId" value={status.id} />
          <button
            type="submit"
            name="direction"
            value="up"
            disabled={first}
            className={BUTTON}
            aria-label={`Move ${status.name} up`}
          >
            ↑
          </button>
          <button
            type="submit"
            name="direction"
            value="down"
            disabled={last}
            className={BUTTON}
            aria-label={`Move ${status.name} down`}
          >
            ↓
          </button>
        </Form>
      </div>
      <Form
        method="post"
        {...getFormProps(form)}
        className="grid items-end gap-3 sm:grid-cols-[1fr_1fr_auto]"
      >
        <input type="hidden" name="statusId" value={status.id} />
        {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <Field label="Name" field={fields.name} type="text" />
        <CategorySelect field={fields.category} />
        <button type="submit" name="intent" value="edit-status" className={BUTTON}>
          Save {status.name}
        </button>
      </Form>
      <Form method="post" {...getFormProps(deleteForm)} className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="statusId" value={status.id} />
        {deleteForm.errors ? <FormMessage>{deleteForm.errors.join(' ')}</FormMessage> : null}
        {status.tasks > 0 ? (
          <div>
            <label htmlFor={deleteFields.moveTo.id} className="label">
              Move its {held} to
            </label>
            <select {...getSelectProps(deleteFields.moveTo)} className={SELECT}>
              <option value="">Choose a status</option>
              {others.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
            <ErrorList id={deleteFields.moveTo.errorId} errors={deleteFields.moveTo.errors} />
          </div>
        ) : null}
        <button type="submit" name="intent" value="delete-status" className={BUTTON}>
          Delete {status.name}
        </button>
      </Form>
    </div>
  );
}
