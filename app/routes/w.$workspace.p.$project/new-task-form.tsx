import { Form, type useActionData } from '@remix-run/react';
import { FormMessage, Field, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { getFormProps } from '~/components/schema-form.ts';
import type { Status } from '~/utils/board.ts';
import { NewTaskSchema } from '~/utils/workspace-schemas.ts';
import type { action } from './route.tsx';

export function NewTaskForm({
  status,
  reply,
  createKey,
}: {
  status: Status;
  reply: ReturnType<typeof useActionData<typeof action>>;
  createKey: string;
}) {
  // After a refused or failed create the form keeps its key, so sending it again cannot make two.
  const key = reply && 'key' in reply && reply.status === status ? (reply.key ?? createKey) : createKey;
  const [form, fields] = useSchemaForm(
    `new-task-${status}`,
    NewTaskSchema,
    reply?.status === status ? reply.result : undefined,
  );
  return (
    <Form method="post" {...getFormProps(form)} className="mt-3 space-y-2">
      <input type="hidden" name="status" value={status} />
      <input type="hidden" name="key" value={key} />
      {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <Field label="Title" field={fields.title} type="text" />
      <SubmitButton name="intent" value="create">
        Create task
      </SubmitButton>
    </Form>
  );
}
