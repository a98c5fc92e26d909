import { Form } from '@remix-run/react';
import { ErrorList, Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { getFormProps, getTextareaProps, type LastResult } from '~/components/schema-form.ts';
import { ProjectDetailsSchema } from '~/utils/workspace-schemas.ts';

/** What the settings' action answers a form it refused: which form (and status), and why. */
export interface IntentReply {
  intent: string;
  statusId?: string | null;
  result?: LastResult;
  moveError?: string;
}

/** The reply for one form: its intent's, and for a status's forms, that status's. */
export const replyFor = (reply: IntentReply | undefined, intent: string, statusId: string | null = null) =>
  reply && reply.intent === intent && (reply.statusId ?? null) === statusId ? reply.result : undefined;

/** The project's name and description; its key is fixed (addresses carry it) and shown for reference. */
export function ProjectDetails({
  project,
  reply,
}: {
  project: { key: string; name: string; description: string };
  reply: IntentReply | undefined;
}) {
  const [form, fields] = useSchemaForm('project-details', ProjectDetailsSchema, replyFor(reply, 'details'), {
    name: project.name,
    description: project.description,
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <Field label="Name" field={fields.name} type="text" />
      <p className="text-sm text-slate-600">
        Key: <span className="font-mono">{project.key}</span> (it names the project’s tasks and addresses, and
        does not change)
      </p>
      <div>
        <label htmlFor={fields.description.id} className="label">
          Description
        </label>
        <textarea {...getTextareaProps(fields.description)} rows={3} className="input" />
        <ErrorList id={fields.description.errorId} errors={fields.description.errors} />
      </div>
      <SubmitButton name="intent" value="details">
        Save
      </SubmitButton>
    </Form>
  );
}

/** Archiving: the board becomes read-only for everyone (and back). */
export function ProjectArchiving({ archived }: { archived: boolean }) {
  return (
    <Form method="post" className="space-y-3">
      <p className="text-sm text-slate-600">
        {archived
          ? 'This project is archived: its board is read-only.'
          : 'An archived project’s board is read-only; it stays listed under “Archived”.'}
      </p>
      <SubmitButton name="intent" value={archived ? 'restore' : 'archive'}>
        {archived ? 'Restore project' : 'Archive project'}
      </SubmitButton>
    </Form>
  );
}
