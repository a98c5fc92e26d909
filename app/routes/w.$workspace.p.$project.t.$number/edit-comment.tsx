import { Form, Link } from '@remix-run/react';
import { ErrorList, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { getFormProps, getTextareaProps } from '~/components/schema-form.ts';
import { CommentSchema } from '~/utils/workspace-schemas.ts';

export function EditComment({
  id,
  body,
  lastResult,
}: {
  id: string;
  body: string;
  lastResult: Parameters<typeof useSchemaForm>[2];
}) {
  const [form, fields] = useSchemaForm(`edit-comment-${id}`, CommentSchema, lastResult, { body });
  return (
    <Form method="post" {...getFormProps(form)} className="mt-1 space-y-2">
      {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <input type="hidden" name="commentId" value={id} />
      <label htmlFor={fields.body.id} className="sr-only">
        Edit your comment
      </label>
      <textarea
        {...getTextareaProps(fields.body)}
        rows={3}
        className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base sm:text-sm"
      />
      <ErrorList id={fields.body.errorId} errors={fields.body.errors} />
      <div className="flex items-center gap-3">
        <SubmitButton name="intent" value="edit-comment">
          Save comment
        </SubmitButton>
        <Link to="?" preventScrollReset className="text-sm font-medium text-slate-700 hover:underline">
          Cancel
        </Link>
      </div>
    </Form>
  );
}
