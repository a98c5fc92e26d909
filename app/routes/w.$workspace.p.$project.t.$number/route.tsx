import { getFormProps, getSelectProps, getTextareaProps, getInputProps } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { useLiveComments } from '~/components/live.tsx';
import { ErrorList, Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { randomUUID } from 'node:crypto';
import { STATUS_LABELS } from '~/utils/board.ts';
import { readerToday } from '~/utils/time-zone.server.ts';
import { publicAvatarUrl } from '~/utils/files.server.ts';
import { Avatar } from '~/components/avatar.tsx';
import { dueLabel } from '~/utils/format.ts';
import { emptyStorageTrash } from '~/utils/admin.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { atLeast } from '~/utils/roles.ts';
import { CommentSchema, TASK_PRIORITIES, TASK_STATUSES, TaskEditSchema } from '~/utils/workspace-schemas.ts';
import { requireProject } from '~/utils/project.server.ts';
import { projectPath, taskPath, taskRef } from '~/utils/projects.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { attachFile } from './attach.server.ts';
import { Attachments } from './attachments.tsx';
import { EditComment } from './edit-comment.tsx';
import { MoveTask } from './move-task.tsx';
import { useEffect, useRef } from 'react';
import { modified, typing } from '~/utils/keys.ts';
import {
  classifyDataError,
  dataErrorKind,
  dataErrorResponse,
  notFound,
  badRequest,
} from '~/utils/data-errors.server.ts';
import { isUuid } from '~/utils/uuid.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';

const PREVIEWABLE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const PREVIEW_SECONDS = 300;

async function loadTask(
  request: Request,
  context: LoaderFunctionArgs['context'],
  params: LoaderFunctionArgs['params'],
) {
  const {
    user,
    member: membership,
    supabase,
  } = await signedIn(request, context, {
    workspace: params.workspace,
  });
  // The project comes with the membership (an old address is sent on to the key's by the board too).
  const project = requireProject(request, context, membership, params.project);
  const number = Number(params.number);
  if (!Number.isInteger(number) || number < 1) throw notFound();
  const { data: task, error } = await supabase
    .from('tasks')
    .select(
      'id, number, title, description, status, priority, assignee_id, due_date, project:projects!tasks_project_fkey(archived_at)',
    )
    .eq('project_id', project.id)
    .eq('workspace_id', membership.workspace.id)
    .eq('number', number)
    .maybeSingle();
  if (error) throw dataErrorResponse(error);
  if (!task) throw notFound();
  return { user, membership, project, task, supabase };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user, membership, project, task, supabase } = await loadTask(request, context, params);
  const [comments, members, attachments] = await Promise.all([
    supabase
      .from('comments')
      .select(
        'id, body, created_at, edited_at, author_id, author:profiles!comments_author_profile_fkey(display_name)',
      )
      .eq('task_id', task.id)
      .order('created_at'),
    supabase
      .from('workspace_members')
      .select('user_id, profile:profiles!workspace_members_profile_fkey(display_name, avatar_path)')
      .eq('workspace_id', membership.workspace.id),
    supabase
      .from('attachments')
      .select(
        'id, name, size, content_type, path, uploaded_by, uploader:profiles!attachments_uploader_profile_fkey(display_name)',
      )
      .eq('task_id', task.id)
      .order('created_at'),
  ]);
  if (comments.error) throw dataErrorResponse(comments.error);
  if (members.error) throw dataErrorResponse(members.error);
  if (attachments.error) throw dataErrorResponse(attachments.error);
  // Previews: short-lived signed URLs for images, handed out only for rows RLS just let us read.
  const images = attachments.data.filter((a) => PREVIEWABLE.has(a.content_type));
  const previews = new Map<string, string>();
  if (images.length > 0) {
    const { data } = await supabase.storage.from('attachments').createSignedUrls(
      images.map((a) => a.path),
      PREVIEW_SECONDS,
    );
    for (const signed of data ?? [])
      if (signed.path && signed.signedUrl) previews.set(signed.path, signed.signedUrl);
  }
  const writable = atLeast(membership.role, 'member') && task.project?.archived_at === null;
  // `?edit=<comment id>` opens the editor of one's own comment: a link, so it works without JavaScript.
  const editing = new URL(request.url).searchParams.get('edit');
  return json({
    // The comment form's one-time key: sent twice (a retry after a lost answer), it makes one comment.
    commentKey: randomUUID(),
    editing: editing && isUuid(editing) ? editing : null,
    task,
    comments: comments.data,
    attachments: attachments.data.map(({ path, uploader, ...a }) => ({
      ...a,
      uploader: uploader?.display_name ?? 'Someone',
      preview: previews.get(path) ?? null,
    })),
    workspaceSlug: membership.workspace.slug,
    projectKey: project.key,
    members: members.data.map((m) => ({
      id: m.user_id,
      name: m.profile?.display_name ?? 'Someone',
      avatar: publicAvatarUrl(m.profile?.avatar_path),
    })),
    today: readerToday(request, new Date()),
    me: user.id,
    canEdit: writable,
    canModerate: atLeast(membership.role, 'admin'),
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  const { user, membership, project, task, supabase } = await loadTask(request, context, params);
  if (!atLeast(membership.role, 'member')) throw notFound();
  const here = taskPath(membership.workspace.slug, project.key, task.number);
  if ((request.headers.get('content-type') ?? '').startsWith('multipart/form-data')) {
    return attachFile(request, context, {
      workspaceId: membership.workspace.id,
      taskId: task.id,
      here,
    });
  }
  const formData = await readForm(request);
  const intent = formData.get('intent');

  if (intent === 'save') {
    const submission = parseWithZod(formData, { schema: TaskEditSchema });
    if (submission.status !== 'success') return json({ intent, result: submission.reply() }, { status: 400 });
    const v = submission.value;
    const { data, error } = await supabase
      .from('tasks')
      .update({
        title: v.title,
        description: v.description ?? '',
        status: v.status,
        priority: v.priority,
        assignee_id: v.assignee ? v.assignee : null,
        due_date: v.dueDate ? v.dueDate : null,
      })
      .eq('id', task.id)
      .select('id');
    // The assignee must be a member: the foreign key to the workspace's members says no otherwise.
    if (error && dataErrorKind(error) === 'invalid') {
      return json(
        {
          intent,
          result: submission.reply({ fieldErrors: { assignee: ['Choose someone from the list.'] } }),
        },
        { status: 400 },
      );
    }
    if (error || data.length !== 1) {
      const failure = error ? classifyDataError(error) : null;
      const message = failure && failure.kind !== 'forbidden' ? failure.message : 'This task is read-only.';
      return json(
        { intent, result: submission.reply({ formErrors: [message] }) },
        { status: failure?.status ?? 403 },
      );
    }
    return redirectWithSession(here, request, context);
  }

  if (intent === 'comment') {
    const submission = parseWithZod(formData, { schema: CommentSchema });
    const key = submission.status === 'success' ? submission.value.key : undefined;
    if (submission.status !== 'success')
      return json({ intent, key, result: submission.reply() }, { status: 400 });
    const row = {
      workspace_id: membership.workspace.id,
      task_id: task.id,
      body: submission.value.body,
      client_key: key ?? null,
    };
    const { error } = key
      ? await supabase
          .from('comments')
          .upsert(row, { onConflict: 'author_id,client_key', ignoreDuplicates: true })
      : await supabase.from('comments').insert(row);
    if (error) {
      const failure = classifyDataError(error);
      const message = failure.kind === 'forbidden' ? 'This task is read-only.' : failure.message;
      return json(
        { intent, key, result: submission.reply({ formErrors: [message] }) },
        { status: failure.status },
      );
    }
    return redirectWithSession(here, request, context);
  }

  if (intent === 'edit-comment') {
    const id = String(formData.get('commentId') ?? '');
    if (!isUuid(id)) throw notFound();
    const submission = parseWithZod(formData, { schema: CommentSchema });
    if (submission.status !== 'success')
      return json({ intent, commentId: id, result: submission.reply() }, { status: 400 });
    // RLS lets authors alone edit; the author filter makes someone else's comment a plain 404.
    const { data, error } = await supabase
      .from('comments')
      .update({ body: submission.value.body })
      .eq('id', id)
      .eq('task_id', task.id)
      .eq('author_id', user.id)
      .select('id');
    if (error) {
      const failure = classifyDataError(error);
      return json(
        { intent, commentId: id, result: submission.reply({ formErrors: [failure.message] }) },
        { status: failure.status },
      );
    }
    if (data.length === 0) throw notFound();
    return redirectWithSession(here, request, context);
  }

  if (intent === 'delete-comment' || intent === 'delete-attachment') {
    // RLS decides: a comment's author or an admin; an attachment's uploader or an admin. A row of
    // another task, or one RLS hides, is a plain 404.
    const [table, field] =
      intent === 'delete-comment'
        ? (['comments', 'commentId'] as const)
        : (['attachments', 'attachmentId'] as const);
    const id = String(formData.get(field) ?? '');
    if (!isUuid(id)) throw notFound();
    const { data, error } = await supabase
      .from(table)
      .delete()
      .eq('id', id)
      .eq('task_id', task.id)
      .select('id');
    if (error) throw dataErrorResponse(error);
    if (data.length === 0) throw notFound();
    // A deleted attachment's file follows its row through the trash.
    if (table === 'attachments') await emptyStorageTrash();
    return redirectWithSession(here, request, context);
  }

  if (intent === 'delete-task') {
    const { data, error } = await supabase.from('tasks').delete().eq('id', task.id).select('id');
    if (error) throw dataErrorResponse(error);
    if (data.length === 0) throw notFound();
    // Its attachments' rows went with it; their files go now.
    await emptyStorageTrash();
    return redirectWithSession(projectPath(membership.workspace.slug, project.key), request, context);
  }
  throw badRequest();
}

export default function TaskPanel() {
  const {
    task,
    comments,
    attachments,
    workspaceSlug,
    projectKey,
    members,
    me,
    canEdit,
    canModerate,
    editing,
    commentKey,
    today,
  } = useLoaderData<typeof loader>();
  const assignee = members.find((m) => m.id === task.assignee_id);
  const due = task.due_date ? dueLabel(task.due_date, today) : null;
  const actionData = useActionData<typeof action>();
  // The board's windows (?todo=150) stay open through the panel's links and forms.
  const location = useLocation();
  const live = useLiveComments(
    task.id,
    comments.map((c) => c.id),
  );
  const attachError = actionData && 'attachError' in actionData ? actionData.attachError : null;
  const [form, fields] = useSchemaForm(
    'task',
    TaskEditSchema,
    actionData?.intent === 'save' ? actionData.result : undefined,
    {
      title: task.title,
      description: task.description,
      status: task.status,
      priority: task.priority,
      assignee: task.assignee_id ?? '',
      dueDate: task.due_date ?? '',
    },
  );
  const [commentForm, commentFields] = useSchemaForm(
    'comment',
    CommentSchema,
    actionData?.intent === 'comment' ? actionData.result : undefined,
  );
  const control =
    'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base sm:text-sm';
  // Esc closes the panel (the board's shortcuts), unless it is meant for a field or an open dialog.
  const close = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || modified(event) || typing(event.target)) return;
      if (document.querySelector('dialog[open]')) return;
      event.preventDefault();
      close.current?.click();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
  return (
    <aside
      aria-label={`Task ${taskRef(projectKey, task.number)}`}
      data-live={live}
      className="fixed inset-y-0 right-0 z-10 w-full overflow-y-auto border-l border-slate-200 bg-white p-5 shadow-xl sm:max-w-lg"
    >
      <div className="flex items-center justify-between">
        <p className="text-sm text-slate-500">{taskRef(projectKey, task.number)}</p>
        <Link
          ref={close}
          // Back to the board: up two segments of the address (t/<number>), its filters kept.
          to={{ pathname: '../..', search: location.search }}
          relative="path"
          className="rounded-md px-2 py-1 text-sm font-medium hover:bg-slate-100"
        >
          Close
        </Link>
      </div>
      {/* The task at a glance, as its card says it. */}
      <p className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-600">
        <span className="inline-flex items-center gap-2">
          {assignee ? <Avatar name={assignee.name} url={assignee.avatar} decorative /> : null}
          {assignee ? assignee.name : 'Unassigned'}
        </span>
        {task.priority !== 'none' ? (
          <span className="inline-flex items-center gap-1.5">
            <span className="priority" data-priority={task.priority} aria-hidden="true" />
            Priority: {task.priority}
          </span>
        ) : null}
        {due ? (
          <time
            dateTime={task.due_date ?? undefined}
            className={due.overdue && task.status !== 'done' ? 'font-medium text-red-700' : undefined}
          >
            {due.text}
          </time>
        ) : null}
      </p>
      {canEdit ? (
        <MoveTask
          task={task}
          taskName={taskRef(projectKey, task.number)}
          boardPath={projectPath(workspaceSlug, projectKey)}
          search={location.search}
        />
      ) : null}
      {canEdit ? (
        <Form method="post" {...getFormProps(form)} className="mt-3 space-y-4">
          {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
          <Field label="Title" field={fields.title} type="text" />
          <div>
            <label htmlFor={fields.description.id} className="block text-sm font-medium">
              Description
            </label>
            <textarea {...getTextareaProps(fields.description)} rows={6} className={control} />
            <ErrorList id={fields.description.errorId} errors={fields.description.errors} />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor={fields.status.id} className="block text-sm font-medium">
                Status
              </label>
              <select {...getSelectProps(fields.status)} className={control}>
                {TASK_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {STATUS_LABELS[s]}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={fields.priority.id} className="block text-sm font-medium">
                Priority
              </label>
              <select {...getSelectProps(fields.priority)} className={control}>
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
              <select {...getSelectProps(fields.assignee)} className={control}>
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
              <input {...getInputProps(fields.dueDate, { type: 'date' })} className={control} />
              <ErrorList id={fields.dueDate.errorId} errors={fields.dueDate.errors} />
            </div>
          </div>
          <SubmitButton name="intent" value="save">
            Save task
          </SubmitButton>
        </Form>
      ) : (
        <div className="mt-3">
          <h2 className="text-lg font-semibold">{task.title}</h2>
          <p className="mt-2 whitespace-pre-wrap text-slate-700">{task.description || 'No description.'}</p>
          <p className="mt-2 text-sm text-slate-500">{STATUS_LABELS[task.status]}</p>
        </div>
      )}
      <Attachments
        attachments={attachments}
        workspaceSlug={workspaceSlug}
        canEdit={canEdit}
        canDelete={(a) => canEdit && (a.uploaded_by === me || canModerate)}
        error={attachError}
      />
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
              {canEdit &&
              c.author_id === me &&
              (editing === c.id ||
                (actionData?.intent === 'edit-comment' && actionData.commentId === c.id)) ? (
                <EditComment
                  id={c.id}
                  body={c.body}
                  lastResult={
                    actionData?.intent === 'edit-comment' && actionData.commentId === c.id
                      ? actionData.result
                      : undefined
                  }
                />
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
                <Form method="post" className="mt-2 inline-block">
                  <input type="hidden" name="commentId" value={c.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="delete-comment"
                    className="text-xs text-red-700 hover:underline"
                  >
                    Delete comment
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ol>
        {canEdit ? (
          <Form method="post" {...getFormProps(commentForm)} className="mt-4 space-y-2">
            <input
              type="hidden"
              name="key"
              value={
                actionData?.intent === 'comment' && 'key' in actionData
                  ? (actionData.key ?? commentKey)
                  : commentKey
              }
            />
            {commentForm.errors ? <FormMessage>{commentForm.errors.join(' ')}</FormMessage> : null}
            <label htmlFor={commentFields.body.id} className="block text-sm font-medium">
              Comment
            </label>
            <textarea {...getTextareaProps(commentFields.body)} rows={3} className={control} />
            <ErrorList id={commentFields.body.errorId} errors={commentFields.body.errors} />
            <SubmitButton name="intent" value="comment">
              Add comment
            </SubmitButton>
          </Form>
        ) : null}
      </section>
      {canModerate && canEdit ? (
        <Form method="post" className="mt-8 border-t border-slate-200 pt-4">
          <button
            type="submit"
            name="intent"
            value="delete-task"
            className="text-sm font-medium text-red-700 hover:underline"
          >
            Delete task
          </button>
        </Form>
      ) : null}
    </aside>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
