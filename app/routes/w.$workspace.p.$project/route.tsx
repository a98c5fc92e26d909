import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Outlet, useActionData, useLoaderData, useParams, useSearchParams } from '@remix-run/react';
import { randomUUID } from 'node:crypto';
import { useRef, type ReactNode } from 'react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { FormMessage } from '~/components/forms.tsx';
import { useHydrated } from '~/components/hydrated.ts';
import { useReaderDay } from '~/components/time.tsx';
import { TrashedNotice } from '~/components/trash-notice.tsx';
import { isFiltered, readFilters, readWindows } from '~/utils/board.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { calendarDate } from '~/utils/format.ts';
import { readIntent } from '~/utils/intent.server.ts';
import { checkProjectPageAddress, requireProject } from '~/utils/project.server.ts';
import { listPath, NEW_TASK_PARAM, projectPath, taskPath } from '~/utils/projects.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { atLeast } from '~/utils/roles.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';
import { readTimeZone } from '~/utils/time-zone.server.ts';
import { readTrashNotice } from '~/utils/trash.server.ts';
import { BoardColumn, BoardColumns, type ColumnContext } from './board-columns.tsx';
import { BoardHeader } from './board-header.tsx';
import { boardPage, boardView } from './board-page.server.ts';
import { createTask } from './create-task.server.ts';
import { BoardFilters, NoMatches } from './filters.tsx';
import { BoardIntent } from './intents.server.ts';
import { moveTask } from './move.server.ts';
import { SaveView } from './save-view.tsx';
import { ShortcutsHelp, useBoardKeys } from './shortcuts.tsx';
import { useLoadOnScroll } from './show-more.tsx';
import { MoveRefused } from './task-card.tsx';
import { useAddTask } from './use-add-task.ts';
import { useCardDrag } from './use-card-drag.ts';
import { useCardKeys } from './use-card-keys.ts';
import { useLiveTasks } from './use-live-tasks.ts';
import { usePlacement } from './use-placement.ts';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const slug = params.workspace ?? '';
  const projectKey = params.project ?? '';
  // An address in capitals is answered with the one in lower case; one from before keys (a UUID),
  // with the key's. (The task panel below, and anything else under the project, goes along.)
  await checkProjectPageAddress(request, context, slug, projectKey);
  const url = new URL(request.url);
  const filters = readFilters(url.searchParams);
  const timeZone = readTimeZone(request);
  const today = calendarDate(new Date(), timeZone);
  // The session check, the workspace and the board's windows in one request.
  const { user, member, data } = await signedIn(request, context, {
    workspace: slug,
    query: boardPage({
      workspace: slug,
      project: projectKey,
      windows: readWindows(url.searchParams),
      filters,
      today,
    }),
  });
  const board = boardView(data);
  const trashed = await readTrashNotice(request);
  return json(
    {
      ...board,
      filters,
      today,
      timeZone,
      workspaceId: member.workspace.id,
      canEdit: atLeast(member.role, 'member') && board.project.archived_at === null,
      canManage: atLeast(member.role, 'admin'),
      me: { id: user.id, name: member.displayName },
      // The create forms' one-time key: a create sent twice with it (a retry after a lost answer)
      // makes one task.
      createKey: randomUUID(),
      trashed: trashed.notice,
    },
    { headers: trashed.headers },
  );
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  // The board's project: in this workspace and visible to the caller, or a 404.
  const { member, supabase } = await signedIn(request, context, {
    workspace: params.workspace,
    minRole: 'member',
  });
  const project = requireProject(request, context, member, params.project);
  const formData = await readForm(request);
  const { intent } = readIntent(formData, BoardIntent);
  // Back to the board as it was shown: its windows stay open (the new-task form's focus does not
  // come along: the form stays open with JavaScript, and without it the page is the board).
  const query = new URL(request.url).searchParams;
  query.delete(NEW_TASK_PARAM);
  const search = query.size > 0 ? `?${query.toString()}` : '';
  const boardUrl = `${projectPath(member.workspace.slug, project.key)}${search}`;
  if (intent === 'create') {
    const ids = { workspaceId: member.workspace.id, projectId: project.id };
    return createTask({ request, context, supabase, formData, ...ids, boardUrl });
  }
  return moveTask({
    request,
    context,
    supabase,
    formData,
    projectId: project.id,
    boardUrl,
    taskUrl: (number) => `${taskPath(member.workspace.slug, project.key, number)}${search}`,
    listTaskUrl: (number) => `${listPath(member.workspace.slug, project.key)}/t/${number}${search}`,
  });
}

/** The board; a saved view's page draws it too, with the view's name and its own controls. */
export default function Board({ title, savedView }: { title?: string; savedView?: ReactNode }) {
  const data = useLoaderData<typeof loader>();
  const {
    project,
    statuses,
    people,
    labels,
    filters,
    today,
    timeZone,
    canEdit,
    canManage,
    me,
    createKey,
    trashed,
  } = data;
  const [address] = useSearchParams();
  // The board's query as its links keep it: without the new-task form's focus.
  const searchParams = new URLSearchParams(address);
  searchParams.delete(NEW_TASK_PARAM);
  const { workspace = '' } = useParams();
  // The first "to do" column, where a task made without a status goes.
  const firstStatus = (statuses.find((s) => s.category === 'unstarted') ?? statuses[0])?.id ?? null;
  const filtered = isFiltered(filters);
  // The board as loaded, with what others changed since applied.
  const { board, others, state: live } = useLiveTasks(data);
  const { tasks: saved, counts, totals } = board;
  const reply = useActionData<typeof action>();
  // Drag and drop and arrow keys exist once the page is interactive; before that, the forms do it all.
  const interactive = useHydrated();
  const placement = usePlacement(saved, project.key, statuses);
  const drag = useCardDrag(placement);
  const keys = useCardKeys(placement, statuses);
  const addTask = useAddTask(reply, canEdit && address.has(NEW_TASK_PARAM) ? firstStatus : null);
  const help = useRef<HTMLDialogElement>(null);
  // The reader's time zone decides when a task is overdue: the browser tells it once (a cookie), and
  // the board's next load uses it; the board loads again when the reader's day is over.
  useReaderDay(today, timeZone);
  useBoardKeys({
    newTask: canEdit
      ? () => {
          const card = document.activeElement?.closest<HTMLElement>('[data-task-id]');
          const task = placement.latest.current.find((t) => t.id === card?.dataset.taskId);
          const status = task?.status ?? firstStatus;
          if (status) addTask.open(status);
        }
      : null,
    help: () => help.current?.showModal(),
  });
  const watchShowMore = useLoadOnScroll(
    searchParams,
    statuses,
    (status) => saved.filter((t) => t.status === status).length,
  );
  const { tasks } = placement;
  const column: ColumnContext = {
    projectKey: project.key,
    workspace,
    statuses,
    searchParams,
    canEdit,
    interactive,
    today,
    people: new Map(people.map((p) => [p.id, p])),
    firstTaskId: tasks[0]?.id,
    drag,
    keys,
    addTask,
    reply,
    createKey,
    watchShowMore,
  };

  return (
    <div>
      <BoardHeader
        project={project}
        canManage={canManage}
        live={live}
        others={others}
        saving={placement.busy}
        onShowShortcuts={() => help.current?.showModal()}
        title={title}
      />
      <BoardFilters filters={filters} people={people} labels={labels} me={me.id} active={filtered} />
      <div className="mt-2 flex flex-wrap items-center gap-3">
        {savedView ?? <SaveView canShare={canManage} />}
      </div>
      {filtered && statuses.every((status) => counts[status.id] === 0) ? <NoMatches /> : null}
      <div className="mt-3 space-y-2 empty:hidden">
        {reply && 'moveError' in reply ? <FormMessage>{reply.moveError}</FormMessage> : null}
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
        {placement.announcement}
      </p>
      <BoardColumns>
        {statuses.map((status) => {
          const cards = tasks.filter((t) => t.status === status.id);
          // Exact, including cards beyond the window and moves still being saved.
          const count = counts[status.id] ?? 0;
          const total = count + cards.length - saved.filter((t) => t.status === status.id).length;
          const of = filtered ? (totals[status.id] ?? 0) + total - count : null;
          return (
            <BoardColumn key={status.id} status={status} cards={cards} total={total} of={of} board={column} />
          );
        })}
      </BoardColumns>
      {/* Opened by `?` or its button, so drawn once there is a script to open it. */}
      {interactive ? <ShortcutsHelp dialog={help} /> : null}
      <Outlet />
      <TrashedNotice notice={trashed} workspaceSlug={workspace} />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.project.name ?? 'Board'} · Crewboard` },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
