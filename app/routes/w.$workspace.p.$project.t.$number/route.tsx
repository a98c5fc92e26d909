import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { randomUUID } from 'node:crypto';
import { useEffect, useRef, type RefObject } from 'react';
import { ConfirmDelete } from '~/components/confirm-delete.tsx';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { useLiveTask } from '~/components/live.tsx';
import { readForm } from '~/utils/form-body.server.ts';
import { readIntent } from '~/utils/intent.server.ts';
import { modified, typing } from '~/utils/keys.ts';
import { overList, projectPath, taskRef } from '~/utils/projects.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { atLeast } from '~/utils/roles.ts';
import { readerToday } from '~/utils/time-zone.server.ts';
import { isUuid } from '~/utils/uuid.ts';
import { attachFile } from './attach.server.ts';
import { Attachments } from './attachments.tsx';
import { tickItem } from './checklist.server.ts';
import { addComment, editComment } from './comment.server.ts';
import { Comments } from './comments.tsx';
import { structureReply, TaskLinks } from './links.tsx';
import { taskDocument } from './document.server.ts';
import { TaskDocument, TaskEditor } from './document.tsx';
import { deleteFromTask, saveTask } from './edit-task.server.ts';
import { FileDrop } from './file-drop.tsx';
import { TaskIntent } from './intents.server.ts';
import { MoveTask } from './move-task.tsx';
import { addLink, addSubtask, removeLink, setParent, taskStructure } from './structure.server.ts';
import { ParentLink, Subtasks } from './subtasks.tsx';
import { TaskFacts } from './task-facts.tsx';
import { TaskForm } from './task-form.tsx';
import { setLabels, toggleLabel } from './task-labels.server.ts';
import { TaskLabels } from './task-labels.tsx';
import { deleteTask } from './trash-task.server.ts';
import { setWatching } from './watch.server.ts';
import { WatchTask } from './watch.tsx';
import { requireTask, taskPanelData } from './task.server.ts';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const found = await requireTask(request, context, params);
  const { user, member, project, task, statuses, watching } = found;
  // `?edit=<comment id>` opens the editor of one's own comment: a link, so it works without JavaScript.
  const editing = new URL(request.url).searchParams.get('edit');
  const panel = await taskPanelData(found);
  const canEdit = atLeast(member.role, 'member') && task.project?.archived_at === null;
  const [structure, document] = await Promise.all([
    taskStructure(found),
    // The description and comments as markdown (each comment with its `html`); `?edit=task` opens the form.
    taskDocument(found, panel.timeline, panel.members, canEdit),
  ]);
  return json({
    ...panel,
    ...structure,
    ...document,
    // The comment form's one-time key: sent twice (a retry after a lost answer), it makes one comment.
    commentKey: randomUUID(),
    editing: editing && isUuid(editing) ? editing : null,
    task: { ...task, project: undefined },
    statuses,
    labels: found.labels,
    workspaceSlug: member.workspace.slug,
    workspaceId: member.workspace.id,
    projectKey: project.key,
    today: readerToday(request, new Date()),
    me: user.id,
    canEdit,
    canModerate: atLeast(member.role, 'admin'),
    watching,
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  const multipart = (request.headers.get('content-type') ?? '').startsWith('multipart/form-data');
  const formData = multipart ? null : await readForm(request);
  // Watching is for anyone who reads the task; every other change is for members.
  const watch = formData?.get('intent');
  if (watch === 'watch' || watch === 'unwatch')
    return setWatching(await requireTask(request, context, params), watch === 'watch');
  const found = await requireTask(request, context, params, 'member');
  if (!formData) return attachFile(found);
  const sent = readIntent(formData, TaskIntent);
  switch (sent.intent) {
    case 'save':
      return saveTask(found, formData);
    case 'comment':
      return addComment(found, formData);
    case 'edit-comment':
      return editComment(found, formData, sent.commentId);
    case 'delete-comment':
      return deleteFromTask(found, 'comments', sent.commentId);
    case 'delete-attachment':
      return deleteFromTask(found, 'attachments', sent.attachmentId);
    case 'delete-task':
      return deleteTask(found);
    case 'labels':
      return setLabels(found, formData);
    case 'add-label':
      return toggleLabel(found, sent.labelId, true);
    case 'remove-label':
      return toggleLabel(found, sent.labelId, false);
    case 'add-subtask':
      return addSubtask(found, formData);
    case 'set-parent':
    case 'clear-parent':
      return setParent(found, formData, sent.intent === 'clear-parent');
    case 'add-link':
      return addLink(found, formData);
    case 'remove-link':
      return removeLink(found, sent.linkId);
    case 'tick':
      return tickItem(found, sent.item);
  }
}

export default function TaskPanel() {
  const {
    task,
    statuses,
    timeline,
    attachments,
    labels,
    workspaceLabels,
    workspaceSlug,
    projectKey,
    members,
    me,
    canEdit,
    canModerate,
    ...page
  } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  // The board's windows (?todo=150) stay open through the panel's links and forms.
  const location = useLocation();
  const live = useLiveTask(task.id, {
    workspaceId: page.workspaceId,
    commentIds: timeline.flatMap((e) => (e.type === 'comment' ? [e.comment.id] : [])),
    labelIds: workspaceLabels.map((l) => l.id),
  });
  const close = useRef<HTMLAnchorElement>(null);
  useEscapeFollows(close);
  const ref = taskRef(projectKey, task.number);
  return (
    <aside
      aria-label={`Task ${ref}`}
      data-live={live}
      className="fixed inset-y-0 right-0 z-10 w-full overflow-y-auto border-l border-slate-200 bg-white p-5 shadow-xl sm:max-w-lg"
    >
      <div className="flex items-center justify-between">
        <p className="text-sm text-slate-500">{ref}</p>
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
      <ParentLink parent={page.parent} />
      {canEdit && (page.document.editing || reply?.intent === 'save') ? (
        <TaskEditor>
          <TaskForm
            task={task}
            statuses={statuses}
            members={members}
            lastResult={reply?.intent === 'save' ? reply.result : undefined}
          />
        </TaskEditor>
      ) : (
        <TaskDocument
          title={task.title}
          {...page.document}
          canEdit={canEdit}
          tickError={reply && 'tickError' in reply ? reply.tickError : null}
          facts={
            <TaskFacts
              task={task}
              category={statuses.find((s) => s.id === task.status)?.category}
              assignee={members.find((m) => m.id === task.assignee_id)}
              today={page.today}
            />
          }
        />
      )}
      <WatchTask
        watching={page.watching}
        error={reply && 'watchError' in reply ? (reply.watchError ?? null) : null}
      />
      {canEdit ? (
        <MoveTask
          task={task}
          statuses={statuses}
          taskName={ref}
          boardPath={projectPath(workspaceSlug, projectKey)}
          search={location.search}
          over={overList(location.pathname) ? 'list' : 'board'}
        />
      ) : null}
      <TaskLabels
        taskId={task.id}
        labels={labels}
        workspaceLabels={workspaceLabels}
        canEdit={canEdit}
        labelsPath={`/w/${workspaceSlug}/labels`}
        error={reply && 'labelsError' in reply ? reply.labelsError : null}
      />
      <Subtasks
        parent={page.parent}
        subtasks={page.subtasks}
        canEdit={canEdit}
        reply={structureReply(reply)}
      />
      <TaskLinks links={page.links} canEdit={canEdit} reply={structureReply(reply)} />
      {canEdit ? <FileDrop workspaceSlug={workspaceSlug} /> : null}
      <Attachments
        attachments={attachments}
        workspaceSlug={workspaceSlug}
        canEdit={canEdit}
        canDelete={(a) => canEdit && (a.uploaded_by === me || canModerate)}
        error={reply && 'attachError' in reply ? reply.attachError : null}
      />
      <Comments
        timeline={timeline}
        clock={page.clock}
        workspaceSlug={workspaceSlug}
        me={me}
        canEdit={canEdit}
        canModerate={canModerate}
        editing={page.editing}
        commentKey={page.commentKey}
        reply={reply}
      />
      {canModerate && canEdit ? (
        <div className="mt-8 border-t border-slate-200 pt-4">
          <ConfirmDelete
            what={{ kind: 'task', ref }}
            className="text-sm font-medium text-red-700 hover:underline"
          >
            Delete task
          </ConfirmDelete>
        </div>
      ) : null}
    </aside>
  );
}

/** Esc follows `link` (the board's shortcuts), unless it is meant for a field or an open dialog. */
function useEscapeFollows(link: RefObject<HTMLAnchorElement | null>) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || modified(event) || typing(event.target)) return;
      if (document.querySelector('dialog[open]')) return;
      event.preventDefault();
      link.current?.click();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [link]);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
