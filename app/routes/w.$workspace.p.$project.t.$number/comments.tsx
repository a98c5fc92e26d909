import { Form, Link, type useActionData } from '@remix-run/react';
import { ConfirmDelete } from '~/components/confirm-delete.tsx';
import { ErrorList, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { getFormProps, getTextareaProps } from '~/components/schema-form.ts';
import { useClock, type Clock } from '~/components/time.tsx';
import { absoluteTime } from '~/utils/format.ts';
import { CommentSchema } from '~/utils/workspace-schemas.ts';
import { Markdown } from './document.tsx';
import { EditComment } from './edit-comment.tsx';
import type { action } from './route.tsx';
import { CONTROL } from './task-form.tsx';
import { Timeline, type TimelineEntries } from './timeline.tsx';

type Reply = ReturnType<typeof useActionData<typeof action>>;

/**
 * The task's comments among its changes (one timeline by time): each comment with when it was
 * written, its author's edit and delete, and the form for a new one.
 */
export function Comments({
  timeline,
  clock: serverClock,
  workspaceSlug,
  me,
  canEdit,
  canModerate,
  editing,
  commentKey,
  reply,
}: {
  timeline: TimelineEntries;
  clock: Clock;
  workspaceSlug: string;
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
  const clock = useClock(serverClock);
  return (
    <section aria-labelledby="comments-title" className="mt-8">
      <h2 id="comments-title" className="text-base font-semibold">
        Activity
      </h2>
      <Timeline
        entries={timeline}
        clock={clock}
        workspaceSlug={workspaceSlug}
        comment={(c, time) => (
          <>
            <p className="font-medium">
              {c.author?.display_name ?? 'Someone'} <span className="font-normal">{time}</span>
              {c.edited_at ? (
                <span
                  className="ml-2 font-normal text-slate-500"
                  title={absoluteTime(c.edited_at, clock.timeZone)}
                >
                  (edited)
                </span>
              ) : null}
            </p>
            {canEdit && c.author_id === me && (editing === c.id || editReply(c.id)) ? (
              <EditComment id={c.id} body={c.body} lastResult={editReply(c.id)} />
            ) : (
              <Markdown html={c.html} className="mt-1" />
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
          </>
        )}
      />
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
