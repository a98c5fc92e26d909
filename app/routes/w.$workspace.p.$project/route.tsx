import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import {
  Link,
  Outlet,
  useActionData,
  useLoaderData,
  useNavigate,
  useParams,
  useSearchParams,
} from '@remix-run/react';
import { randomUUID } from 'node:crypto';
import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent, type MouseEvent } from 'react';
import { flushSync } from 'react-dom';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { rememberTimeZone } from '~/components/time.tsx';
import { calendarDate } from '~/utils/format.ts';
import { readTimeZone } from '~/utils/time-zone.server.ts';
import { FormMessage } from '~/components/forms.tsx';
import { useLiveBoard } from '~/components/live.tsx';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import {
  COLUMN_WINDOW,
  isFiltered,
  moveTo,
  readFilters,
  readWindows,
  showMoreSearch,
  STATUS_LABELS,
  type Status,
} from '~/utils/board.ts';
import { publicAvatarUrl } from '~/utils/files.server.ts';
import { classifyDataError, notFound } from '~/utils/data-errors.server.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import {
  canonicalProjectAddress,
  isLegacyProjectParam,
  legacyProjectRedirect,
  requireProject,
} from '~/utils/project.server.ts';
import { projectPath, taskPath, taskRef } from '~/utils/projects.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { modified } from '~/utils/keys.ts';
import { atLeast } from '~/utils/roles.ts';
import { NewTaskSchema, TASK_STATUSES } from '~/utils/workspace-schemas.ts';
import { BoardFilters, NoMatches } from './filters.tsx';
import { moveTask } from './move.server.ts';
import { CardMenu, type CardMove } from './card-menu.tsx';
import { NewTaskForm } from './new-task-form.tsx';
import { ShortcutsHelp, useBoardKeys } from './shortcuts.tsx';
import { ShowMore, useLoadOnScroll } from './show-more.tsx';
import { MoveRefused, TaskCard } from './task-card.tsx';
import { useMoves, type BoardTask } from './use-moves.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';
import { boardPage, type BoardPageAnswer } from './board-page.server.ts';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const slug = params.workspace ?? '';
  const projectKey = params.project ?? '';
  // An address in capitals is answered with the one in lower case; one from before keys (a UUID),
  // with the key's. (The task panel below, and anything else under the project, goes along.)
  canonicalProjectAddress(request, projectKey);
  if (isLegacyProjectParam(projectKey)) {
    const { member } = await signedIn(request, context, { workspace: slug });
    throw legacyProjectRedirect(request, context, member) ?? notFound();
  }
  const url = new URL(request.url);
  const filters = readFilters(url.searchParams);
  const timeZone = readTimeZone(request);
  const today = calendarDate(new Date(), timeZone);
  // The session check, the workspace and the board's windows in one request.
  const {
    user,
    member: membership,
    data: answer,
  } = await signedIn(request, context, {
    workspace: slug,
    query: boardPage({
      workspace: slug,
      project: projectKey,
      windows: readWindows(url.searchParams),
      filters,
      today,
    }),
  });
  const { project, columns } = answer;
  if (!project || !columns) throw notFound();
  const canEdit = atLeast(membership.role, 'member') && project.archived_at === null;
  const byStatus = <T,>(value: (column: NonNullable<BoardPageAnswer['columns']>[number]) => T) =>
    Object.fromEntries(columns.map((column) => [column.status, value(column)])) as Record<Status, T>;
  return json({
    project,
    // Board order: column by column, each top to bottom. (Positions stay on the server: the order
    // says it all, and the page carries less; so do counts of nothing.)
    tasks: columns.flatMap((column) =>
      column.tasks.map((t) => ({
        id: t.id,
        number: t.number,
        title: t.title,
        status: t.status,
        priority: t.priority,
        due: t.due_date,
        assignee: t.assignee_id,
        ...(t.comments > 0 ? { comments: t.comments } : {}),
        ...(t.attachments > 0 ? { attachments: t.attachments } : {}),
      })),
    ),
    // The cards that match the filters (all of them without one), and all of each column's.
    counts: byStatus((column) => column.count),
    totals: byStatus((column) => column.total),
    // The workspace's members, once: the cards' faces and the assignee filter's choices.
    people: (answer.people ?? []).map((p) => ({
      id: p.id,
      name: p.display_name,
      avatar: publicAvatarUrl(p.avatar_path),
    })),
    filters,
    today,
    timeZone,
    canEdit,
    me: { id: user.id, name: membership.displayName },
    // The create forms' one-time key: a create sent twice with it (a retry after a lost answer)
    // makes one task.
    createKey: randomUUID(),
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  // The board's project: in this workspace and visible to the caller, or a 404.
  const { member: membership, supabase } = await signedIn(request, context, {
    workspace: params.workspace,
    minRole: 'member',
  });
  const project = requireProject(request, context, membership, params.project);
  const formData = await readForm(request);
  // Back to the board as it was shown: its windows stay open.
  const boardUrl = `${projectPath(membership.workspace.slug, project.key)}${new URL(request.url).search}`;

  if (formData.get('intent') === 'create') {
    const submission = parseWithZod(formData, { schema: NewTaskSchema });
    const status = String(formData.get('status') ?? '');
    const key = submission.status === 'success' ? submission.value.key : undefined;
    if (submission.status !== 'success')
      return json({ status, key, result: submission.reply() }, { status: 400 });
    const row = {
      workspace_id: membership.workspace.id,
      project_id: project.id,
      title: submission.value.title,
      status: submission.value.status,
      client_key: key ?? null,
    };
    const { error } = key
      ? await supabase
          .from('tasks')
          .upsert(row, { onConflict: 'created_by,client_key', ignoreDuplicates: true })
      : await supabase.from('tasks').insert(row);
    if (error) {
      const failure = classifyDataError(error);
      const message =
        failure.kind === 'forbidden' ? 'This project is archived: its board is read-only.' : failure.message;
      return json(
        { status, key, result: submission.reply({ formErrors: [message] }) },
        { status: failure.status },
      );
    }
    return redirectWithSession(boardUrl, request, context);
  }

  return moveTask({
    request,
    context,
    supabase,
    formData,
    projectId: project.id,
    boardUrl,
    taskUrl: (number) =>
      `${taskPath(membership.workspace.slug, project.key, number)}${new URL(request.url).search}`,
  });
}

/** A card's own link (task-card.tsx); its menu's "Open" is marked `data-panel-link` instead. */
const CARD_LINK = '.card > a';
/** The links that open a task's panel over the board. */
const PANEL_LINKS = `${CARD_LINK}, a[data-panel-link]`;

export default function Board() {
  const {
    project,
    tasks: saved,
    counts,
    totals,
    people,
    filters,
    today,
    timeZone,
    canEdit,
    me,
    createKey,
  } = useLoaderData<typeof loader>();
  const peopleById = new Map(people.map((p) => [p.id, p]));
  const filtered = isFiltered(filters);
  const [searchParams] = useSearchParams();
  const { workspace = '' } = useParams();
  const search = searchParams.size > 0 ? `?${searchParams.toString()}` : '';
  const { others, state: live } = useLiveBoard(project.id, me);
  const actionData = useActionData<typeof action>();
  const { tasks: shown, enqueue, busy } = useMoves(saved);
  // Handlers read the board as last drawn, never one captured by an older render.
  const latestTasks = useRef(shown);
  latestTasks.current = shown;
  const tasks = shown;
  // The reader's time zone decides when a task is overdue: the browser tells it once (a cookie), and
  // the board's next load uses it.
  useEffect(() => {
    rememberTimeZone(timeZone);
  }, [timeZone]);
  // Drag and drop and arrow keys exist once the page is interactive; before that, the forms do it all.
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropAt, setDropAt] = useState<{ status: Status; index: number } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [focusTask, setFocusTask] = useState<string | null>(null);
  const navigate = useNavigate();

  // A card moved by keyboard is a new element in its new column: give it focus back, when the focus
  // was lost with the old element. Not when it is somewhere else: a menu opened since, or a field.
  useEffect(() => {
    if (!focusTask) return;
    const handle = document.getElementById(`handle-${focusTask}`);
    const lost = !document.activeElement || document.activeElement === document.body;
    if (handle && lost) handle.focus();
  }, [focusTask, tasks]);

  const place = (taskId: string, status: Status, index: number) => {
    const tasks = latestTasks.current;
    const task = tasks.find((t) => t.id === taskId);
    if (!task) return;
    const column = tasks.filter((t) => t.status === status && t.id !== taskId);
    const at = Math.max(0, Math.min(index, column.length));
    const current = tasks.filter((t) => t.status === status).findIndex((t) => t.id === taskId);
    if (task.status === status && current === at) return;
    enqueue(moveTo(tasks, taskId, status, at));
    setAnnouncement(
      `Moved ${taskRef(project.key, task.number)} to ${STATUS_LABELS[status]}, position ${at + 1} of ${column.length + 1}.`,
    );
  };

  // A card's keys, pressed on its handle or its link (not inside its menu): arrows move it (the
  // handle's, as the link's arrows scroll), `[` and `]` move it a column, Enter on the handle opens it.
  const onCardKeyDown = (event: KeyboardEvent<HTMLElement>, shownTask: BoardTask, taskHref: string) => {
    if (event.defaultPrevented || modified(event)) return;
    const target = event.target as HTMLElement;
    const onHandle = target.id === `handle-${shownTask.id}`;
    const onLink = target.matches(CARD_LINK);
    if (!onHandle && !onLink) return;
    if (onHandle && event.key === 'Enter') {
      event.preventDefault();
      navigate(taskHref);
      return;
    }
    const tasks = latestTasks.current;
    const task = tasks.find((t) => t.id === shownTask.id) ?? shownTask;
    const columnIndex = TASK_STATUSES.indexOf(task.status);
    const index = tasks.filter((t) => t.status === task.status).findIndex((t) => t.id === task.id);
    const key = onHandle ? event.key : event.key === '[' || event.key === ']' ? event.key : '';
    const destination =
      key === 'ArrowUp'
        ? { status: task.status, index: index - 1 }
        : key === 'ArrowDown'
          ? { status: task.status, index: index + 1 }
          : key === 'ArrowLeft' || key === '['
            ? { status: TASK_STATUSES[columnIndex - 1], index }
            : key === 'ArrowRight' || key === ']'
              ? { status: TASK_STATUSES[columnIndex + 1], index }
              : null;
    if (!destination) return;
    event.preventDefault();
    if (!destination.status || destination.index < 0) return;
    setFocusTask(task.id);
    place(task.id, destination.status, destination.index);
  };

  // The card menu's moves: another column (to its top, where it shows), or a step in its own.
  const onCardMenu = (taskId: string, move: CardMove) => {
    const task = latestTasks.current.find((t) => t.id === taskId);
    if (!task) return;
    setFocusTask(taskId);
    if ('to' in move) {
      place(taskId, move.to, 0);
      return;
    }
    const index = latestTasks.current
      .filter((t) => t.status === task.status)
      .findIndex((t) => t.id === taskId);
    place(taskId, task.status, index + move.step);
  };

  // "Add task": a column's form opens from its button (or `n`), and Esc or Cancel closes it. Without
  // JavaScript every form is open (app/tailwind.css, `.no-js-only`); a form whose create was refused
  // stays open with its message.
  const [adding, setAdding] = useState<Status | null>(null);
  const [dismissedReply, setDismissedReply] = useState<unknown>(null);
  const replyStatus =
    actionData && 'status' in actionData && actionData !== dismissedReply ? actionData.status : null;
  // Focus moves in the same event, once the render that shows or hides the form is in the page: a
  // key pressed right after cannot land in a form that is closing.
  const openAdd = (status: Status) => {
    flushSync(() => setAdding(status));
    document.getElementById(`new-task-${status}-title`)?.focus();
  };
  const closeAdd = (status: Status) => {
    flushSync(() => {
      setAdding(null);
      setDismissedReply(actionData);
    });
    document.getElementById(`add-task-${status}`)?.focus();
  };
  const help = useRef<HTMLDialogElement>(null);
  useBoardKeys({
    newTask: canEdit
      ? () => {
          const card = document.activeElement?.closest<HTMLElement>('[data-task-id]');
          const task = latestTasks.current.find((t) => t.id === card?.dataset.taskId);
          openAdd(task?.status ?? 'todo');
        }
      : null,
    help: () => help.current?.showModal(),
  });

  const watchShowMore = useLoadOnScroll(
    searchParams,
    (status) => saved.filter((t) => t.status === status).length,
  );

  // Cards link to their panel with plain anchors (a <Link> per card costs more to render than the
  // card); one handler here opens them as client-side navigations, as a <Link> would.
  const onBoardClick = (event: MouseEvent<HTMLElement>) => {
    const anchor = (event.target as Element).closest<HTMLAnchorElement>(PANEL_LINKS);
    if (!anchor || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(anchor.getAttribute('href') ?? '');
  };

  const onDragOver = (event: DragEvent<HTMLElement>, status: Status) => {
    if (!dragging) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    // The slot is before the first card (other than the dragged one) whose middle is below the pointer.
    const cards = [...event.currentTarget.querySelectorAll<HTMLElement>('[data-task-id]')].filter(
      (card) => card.dataset.taskId !== dragging,
    );
    const below = cards.findIndex((card) => {
      const box = card.getBoundingClientRect();
      return event.clientY < box.top + box.height / 2;
    });
    const index = below === -1 ? cards.length : below;
    if (dropAt?.status !== status || dropAt.index !== index) setDropAt({ status, index });
  };
  const onDrop = (event: DragEvent<HTMLElement>, status: Status) => {
    if (!dragging) return;
    event.preventDefault();
    const index =
      dropAt?.status === status
        ? dropAt.index
        : latestTasks.current.filter((t) => t.status === status).length;
    place(dragging, status, index);
    setDragging(null);
    setDropAt(null);
  };

  return (
    <div>
      <header className="flex flex-wrap items-baseline gap-3" data-live={live}>
        <h1 className="text-xl font-semibold">{project.name}</h1>
        <span className="font-mono text-sm text-slate-500">{project.key}</span>
        {project.archived_at ? (
          <span className="rounded bg-slate-200 px-2 py-0.5 text-xs">Archived: read-only</span>
        ) : null}
        {/* A document request (the export route answers a file), so it works without JavaScript. */}
        <Link
          to="export.csv"
          reloadDocument
          className="text-sm text-slate-600 underline hover:text-slate-900"
        >
          Export CSV
        </Link>
        <button
          type="button"
          onClick={() => help.current?.showModal()}
          // Shortcuts are for keyboards: not offered on a phone's width.
          className="js-only hidden text-sm text-slate-600 underline hover:text-slate-900 md:inline"
        >
          Keyboard shortcuts <kbd className="font-mono text-xs">?</kbd>
        </button>
        {busy ? <span className="text-xs text-slate-500">Saving…</span> : null}
        {live === 'interrupted' ? (
          <span aria-live="polite" className="text-xs text-amber-700">
            Reconnecting… changes by others will show when the connection is back.
          </span>
        ) : null}
        {others.length > 0 ? (
          <p
            aria-label="Also on this board"
            className="ml-auto flex items-center gap-1 text-xs text-slate-600"
          >
            <span className="sr-only sm:not-sr-only">Also here:</span>
            {others.map((o) => (
              <span key={o.id} className="rounded-full bg-indigo-100 px-2 py-0.5 font-medium text-indigo-900">
                {o.name}
              </span>
            ))}
          </p>
        ) : null}
      </header>
      <BoardFilters filters={filters} people={people} me={me.id} active={filtered} />
      {filtered && TASK_STATUSES.every((status) => counts[status] === 0) ? <NoMatches /> : null}
      <div className="mt-3 space-y-2 empty:hidden">
        {actionData && 'moveError' in actionData ? <FormMessage>{actionData.moveError}</FormMessage> : null}
        {interactive
          ? saved.map((task) => <MoveRefused key={task.id} task={task} projectKey={project.key} />)
          : null}
      </div>
      {interactive && canEdit ? (
        <p id="reorder-help" className="sr-only">
          Arrow keys move the card: up and down within the column, left and right (or [ and ]) to the next
          column. Enter opens it.
        </p>
      ) : null}
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {/* Delegation: the anchors inside are the interactive elements; keys reach them as usual. */}
      <div className="board-columns mt-4 grid gap-4 md:grid-cols-2 xl:grid-cols-4" onClick={onBoardClick}>
        {TASK_STATUSES.map((status) => {
          const column = tasks.filter((t) => t.status === status);
          // Exact, including cards beyond the window and moves still being saved.
          const total = counts[status] + column.length - saved.filter((t) => t.status === status).length;
          const slot = dropAt?.status === status ? dropAt.index : null;
          let slotIndex = 0;
          return (
            <section
              key={status}
              aria-label={STATUS_LABELS[status]}
              className={`rounded-lg bg-slate-100 p-3 ${slot !== null ? 'ring-2 ring-indigo-300' : ''}`}
              onDragOver={canEdit ? (event) => onDragOver(event, status) : undefined}
              onDrop={canEdit ? (event) => onDrop(event, status) : undefined}
            >
              <h2 className="text-sm font-semibold text-slate-700">
                {STATUS_LABELS[status]}{' '}
                <span className="font-normal text-slate-500">
                  {filtered ? `${total} of ${totals[status] + total - counts[status]}` : total}
                </span>
              </h2>
              <ol className="mt-2 space-y-2">
                {column.map((task, index) => {
                  const taskHref = `${taskPath(workspace, project.key, task.number)}${search}`;
                  // The drop line sits above the card at the slot (counting without the dragged card).
                  const lineAbove = slot !== null && task.id !== dragging && slotIndex++ === slot;
                  return (
                    <TaskCard
                      key={task.id}
                      task={task}
                      canEdit={canEdit}
                      interactive={interactive}
                      dragging={dragging === task.id}
                      lineAbove={lineAbove}
                      onDragStart={() => setDragging(task.id)}
                      onDragEnd={() => {
                        setDragging(null);
                        setDropAt(null);
                      }}
                      onKeyDown={(event) => onCardKeyDown(event, task, taskHref)}
                      taskHref={taskHref}
                      discover={task.id === tasks[0]?.id}
                      menu={
                        <CardMenu
                          status={task.status}
                          number={task.number}
                          projectKey={project.key}
                          taskHref={taskHref}
                          first={index === 0}
                          last={index === column.length - 1}
                          onMove={(move) => onCardMenu(task.id, move)}
                        />
                      }
                      projectKey={project.key}
                      assignee={task.assignee ? peopleById.get(task.assignee) : undefined}
                      today={today}
                    />
                  );
                })}
                {slot !== null && slot >= column.filter((t) => t.id !== dragging).length ? (
                  <li aria-hidden="true" className="h-1 rounded bg-indigo-500" />
                ) : null}
              </ol>
              {total > column.length ? (
                <ShowMore
                  status={status}
                  shown={column.length}
                  total={total}
                  search={showMoreSearch(searchParams, status, column.length + COLUMN_WINDOW)}
                  watch={watchShowMore}
                />
              ) : null}
              {canEdit ? (
                <>
                  {adding !== status ? (
                    <button
                      type="button"
                      id={`add-task-${status}`}
                      onClick={() => openAdd(status)}
                      className="js-only add-task"
                    >
                      + Add task
                    </button>
                  ) : null}
                  <div
                    className="no-js-only"
                    data-open={adding === status || replyStatus === status ? '' : undefined}
                  >
                    <NewTaskForm
                      status={status}
                      reply={actionData}
                      createKey={createKey}
                      onCancel={() => closeAdd(status)}
                    />
                  </div>
                </>
              ) : null}
            </section>
          );
        })}
      </div>
      {/* Opened by `?` or its button, so drawn once there is a script to open it. */}
      {interactive ? <ShortcutsHelp dialog={help} /> : null}
      <Outlet />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.project.name ?? 'Board'} · Crewboard` },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
