import { Form, Link, type useActionData, type useLoaderData } from '@remix-run/react';
import { ConfirmDelete } from '~/components/confirm-delete.tsx';
import { ErrorList, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { getFormProps, getTextareaProps } from '~/components/schema-form.ts';
import { CommentSchema } from '~/utils/workspace-schemas.ts';
import { EditComment } from './edit-comment.tsx';
import type { action, loader } from './route.tsx';
import { CONTROL } from './task-form.tsx';

type Comment = ReturnType<typeof useLoaderData<typeof loader>>['comments'][number];
type Reply = ReturnType<typeof useActionData<typeof action>>;

/** The task's comments: each with its author's edit and delete, and the form for a new one. */
export function Comments({
  comments,
  me,
  canEdit,
  canModerate,
  editing,
  commentKey,
  reply,
}: {
  comments: Comment[];
  me: string;
  canEdit: boolean;
  canModerate: boolean;
  /** The comment whose editor `?edit=` opened. */
  editing: string | null;
  commentKey: string;
  reply: Reply;
}) {
  const editReply = (id: string) =>
    reply?.intent === 'edit-comment' && reply.commentId === id ? reply.result : undefined;
  return (
    <section aria-labelledby="comments-title" className="mt-8">
      <h2 id="comments-title" className="text-base font-semibold">
        Comments
      </h2>
      <ol className="mt-3 space-y-3">
        {comments.map((c) => (
          <li key={c.id} className="rounded-md bg-slate-50 p-3 text-sm">
            <p className="font-medium">
              {c.author?.display_name ?? 'Someone'}
              {c.edited_at ? <span className="ml-2 font-normal text-slate-500">(edited)</span> : null}
            </p>
            {canEdit && c.author_id === me && (editing === c.id || editReply(c.id)) ? (
              <EditComment id={c.id} body={c.body} lastResult={editReply(c.id)} />
            ) : (
              <p className="mt-1 whitespace-pre-wrap">{c.body}</p>
            )}
            {canEdit && c.author_id === me && editing !== c.id ? (
              <Link
                to={`?edit=${c.id}`}
                preventScrollReset
                className="mr-3 mt-2 inline-block text-xs font-medium text-slate-700 hover:underline"
              >
                Edit comment
              </Link>
            ) : null}
            {canEdit && (c.author_id === me || canModerate) ? (
              <ConfirmDelete
                what={{ kind: 'comment', id: c.id }}
                className="mt-2 inline-block text-xs text-red-700 hover:underline"
              >
                Delete comment
              </ConfirmDelete>
            ) : null}
          </li>
        ))}
      </ol>
      {canEdit ? <NewComment commentKey={commentKey} reply={reply} /> : null}
    </section>
  );
}

function NewComment({ commentKey, reply }: { commentKey: string; reply: Reply }) {
  const answered = reply?.intent === 'comment' ? reply : undefined;
  const [form, fields] = useSchemaForm('comment', CommentSchema, answered?.result);
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 space-y-2">
      {/* After a refused or failed comment the form keeps its key, so sending it again makes one. */}
      <input type="hidden" name="key" value={answered?.key ?? commentKey} />
      {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <label htmlFor={fields.body.id} className="block text-sm font-medium">
        Comment
      </label>
      <textarea {...getTextareaProps(fields.body)} rows={3} className={CONTROL} />
      <ErrorList id={fields.body.errorId} errors={fields.body.errors} />
      <SubmitButton name="intent" value="comment">
        Add comment
      </SubmitButton>
    </Form>
  );
}
