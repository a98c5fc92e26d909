import { Form, useFetcher } from '@remix-run/react';
import { useState } from 'react';
import { Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { useHydrated } from '~/components/hydrated.ts';
import { getFormProps } from '~/components/schema-form.ts';
import { StatusSchema } from '~/utils/workspace-schemas.ts';
import { placeStatus } from './place-status.ts';
import { replyFor, type IntentReply } from './project-forms.tsx';
import { CategorySelect, StatusRow, type SettingsStatus } from './status-row.tsx';

/**
 * The project's statuses in board order, each with its forms, and the form that adds one. With
 * JavaScript a status can also be dragged to its place (by its handle); the move is saved at once and
 * shown while it is.
 */
export function StatusList({
  statuses,
  reply,
}: {
  statuses: SettingsStatus[];
  reply: IntentReply | undefined;
}) {
  const interactive = useHydrated();
  const placing = useFetcher({ key: 'place-status' });
  const [dragging, setDragging] = useState<string | null>(null);
  const pending = placing.formData;
  const shown = pending
    ? placeStatus(statuses, String(pending.get('statusId')), Number(pending.get('toIndex')))
    : statuses;
  const drop = (toIndex: number) => {
    if (!dragging) return;
    placing.submit(
      { intent: 'place-status', statusId: dragging, toIndex: String(toIndex) },
      { method: 'post' },
    );
    setDragging(null);
  };
  return (
    <>
      <ol className="space-y-3">
        {shown.map((status, index) => (
          <li
            key={status.id}
            data-status-row={status.id}
            onDragOver={interactive ? (event) => dragging && event.preventDefault() : undefined}
            onDrop={interactive ? () => drop(index) : undefined}
            className={dragging === status.id ? 'opacity-50' : undefined}
          >
            <StatusRow
              status={status}
              others={shown.filter((s) => s.id !== status.id)}
              first={index === 0}
              last={index === shown.length - 1}
              reply={reply}
              handle={
                interactive ? (
                  // The handle drags its row; the row's fields stay free for selecting their text.
                  <span
                    draggable
                    onDragStart={(event) => {
                      event.dataTransfer.effectAllowed = 'move';
                      event.dataTransfer.setData('text/plain', status.id);
                      setDragging(status.id);
                    }}
                    onDragEnd={() => setDragging(null)}
                    role="img"
                    aria-label={`Drag ${status.name} to reorder`}
                    className="cursor-grab select-none text-slate-400"
                  >
                    ⠿
                  </span>
                ) : null
              }
            />
          </li>
        ))}
      </ol>
      <AddStatus reply={reply} />
    </>
  );
}

function AddStatus({ reply }: { reply: IntentReply | undefined }) {
  const [form, fields] = useSchemaForm('add-status', StatusSchema, replyFor(reply, 'add-status'), {
    category: 'started',
  });
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 space-y-3 rounded-md bg-slate-50 p-3">
      <h3 className="text-sm font-semibold">Add a status</h3>
      {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="New status name" field={fields.name} type="text" />
        <CategorySelect field={fields.category} />
      </div>
      <p className="text-xs text-slate-500">It goes last; move it up to its place.</p>
      <SubmitButton name="intent" value="add-status">
        Add status
      </SubmitButton>
    </Form>
  );
}
