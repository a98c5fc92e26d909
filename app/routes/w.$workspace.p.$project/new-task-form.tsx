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
  // went through (a refused one keeps what was typed, with its message). The new card can show
  // before that, from Realtime: a next title typed meanwhile is kept.
  const navigation = useNavigation();
  const sending =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === 'create' &&
    navigation.formData.get('status') === status
      ? String(navigation.formData.get('title') ?? '')
      : null;
  const sent = useRef<string | null>(null);
  const formElement = useRef<HTMLFormElement>(null);
  const refused = reply?.status === status;
  useEffect(() => {
    if (sending !== null) sent.current = sending;
    else if (sent.current !== null) {
      const title = formElement.current?.elements.namedItem('title');
      const unchanged = !(title instanceof HTMLInputElement) || title.value === sent.current;
      sent.current = null;
      if (!refused && unchanged) formElement.current?.reset();
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
