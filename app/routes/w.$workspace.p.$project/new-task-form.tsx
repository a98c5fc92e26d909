import { Form, useNavigation, type useActionData } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { FormMessage, Field, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { getFormProps } from '~/components/schema-form.ts';
import type { Status } from '~/utils/board.ts';
import { NewTaskSchema } from '~/utils/workspace-schemas.ts';
import type { action } from './route.tsx';

export function NewTaskForm({
  status,
  reply,
  createKey,
  onCancel,
}: {
  status: Status;
  reply: ReturnType<typeof useActionData<typeof action>>;
  createKey: string;
  /** Closes the form (with JavaScript, where it opened from the column's "Add task"). */
  onCancel: () => void;
}) {
  // After a refused or failed create the form keeps its key, so sending it again cannot make two.
  const key = reply && 'key' in reply && reply.status === status ? (reply.key ?? createKey) : createKey;
  const [form, fields] = useSchemaForm(
    `new-task-${status}`,
    NewTaskSchema,
    reply?.status === status ? reply.result : undefined,
  );
  // With JavaScript the form stays open after a create, for the next task: empty it once the create
  // went through (a refused one keeps what was typed, with its message).
  const navigation = useNavigation();
  const sending =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === 'create' &&
    navigation.formData.get('status') === status;
  const sent = useRef(false);
  const formElement = useRef<HTMLFormElement>(null);
  const refused = reply?.status === status;
  useEffect(() => {
    if (sending) sent.current = true;
    else if (sent.current) {
      sent.current = false;
      if (!refused) formElement.current?.reset();
    }
  }, [sending, refused]);
  return (
    <Form
      ref={formElement}
      method="post"
      {...getFormProps(form)}
      className="mt-3 space-y-2"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        onCancel();
      }}
    >
      <input type="hidden" name="status" value={status} />
      <input type="hidden" name="key" value={key} />
      {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <Field label="Title" field={fields.title} type="text" />
      <div className="flex items-center gap-2">
        <SubmitButton name="intent" value="create">
          Create task
        </SubmitButton>
        <button type="button" onClick={onCancel} className="js-only button-quiet">
          Cancel
        </button>
      </div>
    </Form>
  );
}
