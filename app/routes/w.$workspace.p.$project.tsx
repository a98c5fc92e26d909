import { getFormProps } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import {
  Form,
  Link,
  Outlet,
  useActionData,
  useFetcher,
  useFetchers,
  useLoaderData,
  useNavigate,
  useNavigation,
  useParams,
  useSearchParams,
  useSubmit,
} from '@remix-run/react';
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type DragEvent,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { useLiveBoard } from '~/components/live.tsx';
import { Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { redirectWithSession } from '~/utils/auth.server.ts';
import {
  applyMove,
  COLUMN_WINDOW,
  moveFormData,
  moveTo,
  readMove,
  readWindows,
  showMoreSearch,
  STATUS_LABELS,
  type Move,
  type Status,
} from '~/utils/board.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { MoveTaskSchema, NewTaskSchema, TASK_STATUSES } from '~/utils/workspace-schemas.ts';
import { getSupabase } from '~/utils/supabase.server.ts';
import { atLeast } from '~/utils/roles.ts';
import { requireMember } from '~/utils/workspace.server.ts';
import { pageQuery, planPageQuery, type PageQueryAnswer } from '~/utils/page-query.server.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { classifyDataError, dataErrorResponse } from '~/utils/data-errors.server.ts';
import { randomUUID } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type BoardTaskRow = {
  id: string;
  number: number;
  title: string;
  status: Status;
  position: number;
  priority: string;
  due_date: string | null;
  assignee: { display_name: string } | null;
};

/** What `board_page` answers (supabase/migrations/20261123130000_board_page.sql). */
interface BoardPageAnswer extends PageQueryAnswer {
  project: { id: string; name: string; description: string | null; archived_at: string | null } | null;
  columns: Array<{ status: Status; count: number; tasks: BoardTaskRow[] }> | null;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const slug = params.workspace ?? '';
  const projectId = params.project ?? '';
  const url = new URL(request.url);
  const windows = readWindows(url.searchParams);
  // The session check, the workspace and the board's windows in one request (page-query.server.ts).
  if (UUID.test(projectId)) {
    const { supabase } = getSupabase(request, context);
    planPageQuery(context, slug, () =>
      supabase
        .rpc('board_page', { workspace_slug: slug, project_id: projectId, shown: windows })
        // The function's JSON has the shape its migration documents.
        .then(({ data, error }) => ({ data: data as unknown as BoardPageAnswer | null, error })),
    );
  }
  const membership = await requireMember(request, context, slug);
  const answer = UUID.test(projectId) ? await pageQuery<BoardPageAnswer>(context, slug) : undefined;
  if (answer?.error) throw dataErrorResponse(answer.error);
  const project = answer?.data?.project;
  const columns = answer?.data?.columns;
  if (!project || !columns) throw new Response('Not found', { status: 404 });
  const canEdit = atLeast(membership.role, 'member') && project.archived_at === null;
  return json({
    project,
    // Board order: column by column, each top to bottom. (Positions stay on the server: the order
    // says it all, and the page carries less.)
    tasks: columns.flatMap((column) => column.tasks.map(({ position: _position, ...task }) => task)),
    counts: Object.fromEntries(columns.map((column) => [column.status, column.count])) as Record<
      Status,
      number
    >,
    canEdit,
    me: { id: membership.user.id, name: membership.displayName },
    // The create forms' one-time key: a create sent twice with it (a retry after a lost answer)
    // makes one task.
    createKey: randomUUID(),
  });
}

/** The board's project, for an action: in this workspace and visible to the caller, or a 404. */
async function loadProject(
  request: Request,
  context: ActionFunctionArgs['context'],
  params: ActionFunctionArgs['params'],
) {
  const membership = await requireMember(request, context, params.workspace);
  if (!params.project || !UUID.test(params.project)) throw new Response('Not found', { status: 404 });
  const { supabase } = getSupabase(request, context);
  const { data: project, error } = await supabase
    .from('projects')
    .select('id, archived_at')
    .eq('id', params.project)
    .eq('workspace_id', membership.workspace.id)
    .maybeSingle();
  if (error) throw dataErrorResponse(error);
  if (!project) throw new Response('Not found', { status: 404 });
  return { membership, project };
}

/**
 * The neighbours a one-step move (↑ or ↓, without JavaScript) lands between: the card it passes and
 * the one beyond it, read from the database, since the board shows only a window of each column.
 * Null when the task is already at that end of its column.
 */
async function stepNeighbours(
  supabase: ReturnType<typeof getSupabase>['supabase'],
  task: { id: string; project_id: string; status: Status; position: number },
  direction: 'up' | 'down',
): Promise<{ after_task_id?: string; before_task_id?: string } | null> {
  const up = direction === 'up';
  const query = supabase
    .from('tasks')
    .select('id')
    .eq('project_id', task.project_id)
    .eq('status', task.status)
    .neq('id', task.id);
  const { data, error } = await (
    up ? query.lt('position', task.position) : query.gt('position', task.position)
  )
    .order('position', { ascending: !up })
    .order('id', { ascending: !up })
    .limit(2);
  if (error) throw dataErrorResponse(error);
  const [passed, beyond] = data;
  if (!passed) return null;
  return up
    ? { before_task_id: passed.id, after_task_id: beyond?.id }
    : { after_task_id: passed.id, before_task_id: beyond?.id };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  const { membership, project } = await loadProject(request, context, params);
  if (!atLeast(membership.role, 'member')) throw new Response('Not found', { status: 404 });
  const formData = await readForm(request);
  const { supabase } = getSupabase(request, context);
  // Back to the board as it was shown: its windows stay open.
  const boardUrl = `/w/${membership.workspace.slug}/p/${project.id}${new URL(request.url).search}`;

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

  // With JavaScript a move is a fetcher (its form says so: Remix hides `?_data` from actions): it
  // answers with data, and the fetcher keeps showing the move until the revalidated board has it. A
  // redirect would end the fetcher at once, and a revalidation begun before the move was saved could
  // then draw the board without it. Without JavaScript the answer is a redirect (post, redirect, get).
  const fromScript = formData.get('via') === 'script';
  const move = MoveTaskSchema.safeParse(Object.fromEntries(formData));
  if (!move.success) throw new Response('Bad request', { status: 400 });
  const { taskId, status, direction, beforeTaskId, afterTaskId } = move.data;
  const { data: task, error: taskError } = await supabase
    .from('tasks')
    .select('id, number, project_id, status, position')
    .eq('id', taskId)
    .eq('project_id', project.id)
    .maybeSingle();
  if (taskError) throw dataErrorResponse(taskError);
  if (!task) {
    if (fromScript) return json({ moveError: 'This task no longer exists.', taskId }, { status: 404 });
    throw new Response('Not found', { status: 404 });
  }
  // The task panel's move forms (no JavaScript needed) come back to the panel.
  const backTo =
    formData.get('back') === 'panel'
      ? `/w/${membership.workspace.slug}/p/${project.id}/t/${task.number}${new URL(request.url).search}`
      : boardUrl;
  const unchanged = () =>
    fromScript ? json({ moved: taskId }) : redirectWithSession(backTo, request, context);
  let neighbours: { after_task_id?: string; before_task_id?: string } = {};
  if (beforeTaskId || afterTaskId) {
    neighbours = { after_task_id: afterTaskId, before_task_id: beforeTaskId };
  } else if (status === task.status) {
    // Same column, nowhere to go (top moved up, bottom moved down, or no direction): nothing changes.
    const step = direction ? await stepNeighbours(supabase, task, direction) : null;
    if (!step) return unchanged();
    neighbours = step;
  }
  const { error } = await supabase.rpc('move_task', { task_id: taskId, status, ...neighbours });
  if (error) {
    // Shown on the board (and the optimistic move rolled back), never an error page.
    const failure = classifyDataError(error);
    const moveError = {
      forbidden: 'You cannot move this task.',
      // move_task refuses neighbours that are no longer where the board showed them.
      invalid: 'The board changed while you were moving this task. Try again.',
      conflict: 'The board changed while you were moving this task. Try again.',
      not_found: 'This task no longer exists.',
      too_large: failure.message,
      unavailable: failure.message,
    }[failure.kind];
    return json({ moveError, taskId }, { status: failure.kind === 'invalid' ? 409 : failure.status });
  }
  return unchanged();
}

function NewTaskForm({
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

type BoardTask = ReturnType<typeof useLoaderData<typeof loader>>['tasks'][number];
type MoveReply = { moveError?: string; moved?: string };

const moveKey = (taskId: string) => `move-${taskId}`;

/**
 * Moves are saved one at a time per task, in order: a second move of a task waits for the first to
 * be saved (a newer one replaces a waiting one), so the server never sees them out of order. The board
 * shows saved tasks with every move being saved or waiting already applied.
 */
function useMoves(saved: BoardTask[]) {
  const fetchers = useFetchers();
  const submit = useSubmit();
  const [waiting, setWaiting] = useState<Record<string, Move>>({});
  const saving = new Set(
    fetchers.filter((f) => f.state === 'submitting' && f.key.startsWith('move-')).map((f) => f.key),
  );
  const busy = saving.size > 0 || Object.keys(waiting).length > 0;
  // Leaving the page would drop a move that is waiting its turn: ask first, as editors do.
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  let tasks = saved;
  for (const fetcher of fetchers) {
    const move = readMove(fetcher.formData);
    if (move) tasks = applyMove(tasks, move);
  }
  for (const move of Object.values(waiting)) tasks = applyMove(tasks, move);

  const send = (move: Move) =>
    submit(moveFormData(move), { method: 'post', navigate: false, fetcherKey: moveKey(move.taskId) });
  const savingKey = [...saving].sort().join(' ');
  useEffect(() => {
    const ready = Object.values(waiting).filter((move) => !saving.has(moveKey(move.taskId)));
    if (ready.length === 0) return;
    setWaiting((current) => {
      const next = { ...current };
      for (const move of ready) delete next[move.taskId];
      return next;
    });
    for (const move of ready) send(move);
    // `saving` is derived from fetchers; savingKey says when it changed.
  }, [waiting, savingKey]);

  // Event handlers may run before the render that follows a submission: read the latest state.
  const savingNow = useRef(saving);
  savingNow.current = saving;
  const enqueue = (move: Move) => {
    if (savingNow.current.has(moveKey(move.taskId))) {
      setWaiting((current) => ({ ...current, [move.taskId]: move }));
    } else {
      // Counted as saving at once, so a second key press before the next render waits its turn.
      savingNow.current = new Set(savingNow.current).add(moveKey(move.taskId));
      send(move);
    }
  };
  return { tasks, enqueue, busy };
}

export default function Board() {
  const { project, tasks: saved, counts, canEdit, me, createKey } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const { workspace } = useParams();
  // Absolute addresses, built once: links and forms of every card share them.
  const boardPath = `/w/${workspace}/p/${project.id}`;
  const search = searchParams.size > 0 ? `?${searchParams.toString()}` : '';
  const { others, state: live } = useLiveBoard(project.id, me);
  const actionData = useActionData<typeof action>();
  const { tasks: shown, enqueue, busy } = useMoves(saved);
  // Handlers read the board as last drawn, never one captured by an older render.
  const latestTasks = useRef(shown);
  latestTasks.current = shown;
  const tasks = shown;
  // Drag and drop and arrow keys exist once the page is interactive; before that, the forms do it all.
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropAt, setDropAt] = useState<{ status: Status; index: number } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [focusTask, setFocusTask] = useState<string | null>(null);

  // A card moved by keyboard is a new element in its new column: give it focus back.
  useEffect(() => {
    if (!focusTask) return;
    const handle = document.getElementById(`handle-${focusTask}`);
    if (handle && document.activeElement !== handle) handle.focus();
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
      `Moved #${task.number} to ${STATUS_LABELS[status]}, position ${at + 1} of ${column.length + 1}.`,
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, shownTask: BoardTask) => {
    const tasks = latestTasks.current;
    const task = tasks.find((t) => t.id === shownTask.id) ?? shownTask;
    const columnIndex = TASK_STATUSES.indexOf(task.status);
    const index = tasks.filter((t) => t.status === task.status).findIndex((t) => t.id === task.id);
    const target =
      event.key === 'ArrowUp'
        ? { status: task.status, index: index - 1 }
        : event.key === 'ArrowDown'
          ? { status: task.status, index: index + 1 }
          : event.key === 'ArrowLeft'
            ? { status: TASK_STATUSES[columnIndex - 1], index }
            : event.key === 'ArrowRight'
              ? { status: TASK_STATUSES[columnIndex + 1], index }
              : null;
    if (!target) return;
    event.preventDefault();
    if (!target.status || target.index < 0) return;
    setFocusTask(task.id);
    place(task.id, target.status, target.index);
  };

  const watchShowMore = useLoadOnScroll(
    searchParams,
    (status) => saved.filter((t) => t.status === status).length,
  );

  // Cards link to their panel with plain anchors (a <Link> per card costs more to render than the
  // card); one handler here opens them as client-side navigations, as a <Link> would.
  const navigate = useNavigate();
  const onBoardClick = (event: MouseEvent<HTMLElement>) => {
    const anchor = (event.target as Element).closest<HTMLAnchorElement>('a[data-panel-link]');
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
      <div className="mt-3 space-y-2 empty:hidden">
        {actionData && 'moveError' in actionData ? <FormMessage>{actionData.moveError}</FormMessage> : null}
        {interactive ? saved.map((task) => <MoveRefused key={task.id} task={task} />) : null}
      </div>
      {interactive && canEdit ? (
        <p id="reorder-help" className="sr-only">
          Use the arrow keys: up and down within the column, left and right to the next column.
        </p>
      ) : null}
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {/* Delegation: the anchors inside are the interactive elements; keys reach them as usual. */}
      <div className="mt-4 grid gap-4 md:grid-cols-2 xl:grid-cols-4" onClick={onBoardClick}>
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
                {STATUS_LABELS[status]} <span className="font-normal text-slate-500">{total}</span>
              </h2>
              <ol className="mt-2 space-y-2">
                {column.map((task) => {
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
                      onKeyDown={(event) => onKeyDown(event, task)}
                      taskHref={`${boardPath}/t/${task.number}${search}`}
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
              {canEdit ? <NewTaskForm status={status} reply={actionData} createKey={createKey} /> : null}
            </section>
          );
        })}
      </div>
      <Outlet />
    </div>
  );
}

/**
 * The link to a column's next cards. Without JavaScript it is a link (the address says how many each
 * column shows, so the page can be shared); with it, the board also follows it by itself while it
 * is in view (useLoadOnScroll).
 */
function ShowMore({
  status,
  shown,
  total,
  search,
  watch,
}: {
  status: Status;
  shown: number;
  total: number;
  search: string;
  watch: (status: Status, element: HTMLElement | null) => void;
}) {
  const navigation = useNavigation();
  const loading = navigation.state === 'loading' && navigation.location.search === search;
  const next = Math.min(COLUMN_WINDOW, total - shown);
  const ref = useCallback((element: HTMLElement | null) => watch(status, element), [watch, status]);
  return (
    <p className="mt-2 text-center text-sm">
      <Link
        ref={ref}
        to={search}
        replace
        preventScrollReset
        className="text-indigo-700 underline hover:text-indigo-900"
        aria-label={`Show ${next} more in ${STATUS_LABELS[status]} (${shown} of ${total} shown)`}
      >
        {loading ? 'Loading…' : `Show ${next} more`}
      </Link>
    </p>
  );
}

/**
 * With JavaScript, a column's next cards load while its "Show more" link is in view: one column at
 * a time (a navigation started for one column would cancel another's), and again after each load
 * for as long as a link stays in view. Returns the `watch` callback the links register with.
 */
function useLoadOnScroll(searchParams: URLSearchParams, shown: (status: Status) => number) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const inView = useRef(new Set<Status>());
  const elements = useRef(new Map<Status, HTMLElement>());
  const [observer, setObserver] = useState<IntersectionObserver | null>(null);
  const [seen, setSeen] = useState(0);
  useEffect(() => {
    if (typeof IntersectionObserver === 'undefined') return;
    const watcher = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const status = (entry.target as HTMLElement).dataset.moreFor as Status;
        if (entry.isIntersecting) inView.current.add(status);
        else inView.current.delete(status);
      }
      setSeen((n) => n + 1);
    });
    for (const element of elements.current.values()) watcher.observe(element);
    setObserver(watcher);
    return () => watcher.disconnect();
  }, []);
  const idle = navigation.state === 'idle';
  const wanted = TASK_STATUSES.find((status) => inView.current.has(status));
  const next = wanted ? showMoreSearch(searchParams, wanted, shown(wanted) + COLUMN_WINDOW) : null;
  useEffect(() => {
    if (idle && next) navigate(next, { replace: true, preventScrollReset: true });
  }, [idle, next, seen, navigate]);
  // Stable, so a link's ref is not detached and attached again on every render.
  return useCallback(
    (status: Status, element: HTMLElement | null) => {
      const previous = elements.current.get(status);
      if (previous === element) return;
      if (previous) {
        observer?.unobserve(previous);
        elements.current.delete(status);
        inView.current.delete(status);
      }
      if (element) {
        element.dataset.moreFor = status;
        elements.current.set(status, element);
        observer?.observe(element);
      }
    },
    [observer],
  );
}

/**
 * Why the server refused a task's last move (the board has already rolled it back). It lives outside
 * the columns: a card changes column, and so element, while its move is saved; this does not.
 */
function MoveRefused({ task }: { task: BoardTask }) {
  const fetcher = useFetcher<MoveReply>({ key: moveKey(task.id) });
  const refused = fetcher.state === 'idle' ? fetcher.data?.moveError : undefined;
  if (!refused) return null;
  return (
    <FormMessage>
      Couldn't move #{task.number} {task.title}: {refused}
    </FormMessage>
  );
}

function TaskCard({
  task,
  canEdit,
  interactive,
  dragging,
  lineAbove,
  onDragStart,
  onDragEnd,
  onKeyDown,
  taskHref,
}: {
  task: BoardTask;
  canEdit: boolean;
  interactive: boolean;
  dragging: boolean;
  lineAbove: boolean;
  onDragStart: () => void;
  onDragEnd: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
  taskHref: string;
}) {
  const draggable = interactive && canEdit;
  return (
    <li
      data-task-id={task.id}
      draggable={draggable || undefined}
      onDragStart={
        draggable
          ? (event) => {
              event.dataTransfer.effectAllowed = 'move';
              event.dataTransfer.setData('text/plain', task.id);
              onDragStart();
            }
          : undefined
      }
      onDragEnd={draggable ? onDragEnd : undefined}
      className={[
        'rounded-md border border-slate-200 bg-white p-3 shadow-sm',
        dragging ? 'opacity-50' : '',
        lineAbove ? 'shadow-[0_-4px_0_0_theme(colors.indigo.500)]' : '',
        draggable ? 'cursor-grab' : '',
      ]
        .filter(Boolean)
        .join(' ')}
    >
      <div className="flex items-start gap-2">
        {draggable ? (
          <button
            type="button"
            id={`handle-${task.id}`}
            aria-label={`Reorder #${task.number}`}
            aria-describedby="reorder-help"
            onKeyDown={onKeyDown}
            className="-ml-1 cursor-grab rounded px-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
          >
            ⠿
          </button>
        ) : null}
        {/* A plain anchor: the board opens it without a page load (onBoardClick). */}
        <a href={taskHref} data-panel-link className="font-medium hover:underline">
          <span className="text-slate-500">{`#${task.number}`}</span> {task.title}
        </a>
      </div>
      {/* One string: one text node, where three would be split by markers in the page. */}
      <p className="mt-1 text-xs text-slate-500">
        {[
          task.assignee?.display_name ?? 'Unassigned',
          task.priority !== 'none' ? task.priority : null,
          task.due_date ? `due ${task.due_date}` : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
    </li>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.project.name ?? 'Board'} · Crewboard` },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
