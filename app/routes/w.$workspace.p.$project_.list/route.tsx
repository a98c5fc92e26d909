import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Outlet, useActionData, useLoaderData, useParams, useSearchParams } from '@remix-run/react';
import { type ReactNode } from 'react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { useLiveBoard } from '~/components/live-board.ts';
import { SaveView } from '../w.$workspace.p.$project/save-view.tsx';
import { useReaderDay } from '~/components/time.tsx';
import { TrashedNotice } from '~/components/trash-notice.tsx';
import { ProjectHeading } from '~/components/view-switch.tsx';
import { isFiltered, readFilters } from '~/utils/board.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { calendarDate } from '~/utils/format.ts';
import { readIntent } from '~/utils/intent.server.ts';
import { readShown, readSort } from '~/utils/list.ts';
import { checkProjectPageAddress, requireProject } from '~/utils/project.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { atLeast } from '~/utils/roles.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';
import { readTimeZone } from '~/utils/time-zone.server.ts';
import { readTrashNotice } from '~/utils/trash.server.ts';
import { BoardFilters, NoMatches } from '../w.$workspace.p.$project/filters.tsx';
import { bulkEdit, ListIntent } from './bulk-edit.server.ts';
import { BulkMessage } from './bulk-edit.tsx';
import { ListTable, PhoneSort } from './list-table.tsx';
import { listPage, listView } from './list-page.server.ts';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const slug = params.workspace ?? '';
  const projectKey = params.project ?? '';
  // An address in capitals is answered with the one in lower case; one from before keys (a UUID),
  // with the key's. (The task panel below, and anything else under the project, goes along.)
  await checkProjectPageAddress(request, context, slug, projectKey);
  const url = new URL(request.url);
  const filters = readFilters(url.searchParams);
  const sort = readSort(url.searchParams);
  const shown = readShown(url.searchParams);
  const timeZone = readTimeZone(request);
  const today = calendarDate(new Date(), timeZone);
  // The session check, the workspace and the list's window in one request.
  const { user, member, data } = await signedIn(request, context, {
    workspace: slug,
    query: listPage({ workspace: slug, project: projectKey, filters, sort, shown, today }),
  });
  const list = listView(data);
  const trashed = await readTrashNotice(request);
  return json(
    {
      ...list,
      filters,
      sort,
      shown,
      today,
      timeZone,
      workspaceId: member.workspace.id,
      canEdit: atLeast(member.role, 'member') && list.project.archived_at === null,
      canTrash: atLeast(member.role, 'admin') && list.project.archived_at === null,
      // Who may share a view they save.
      canManage: atLeast(member.role, 'admin'),
      me: { id: user.id, name: member.displayName },
      trashed: trashed.notice,
    },
    { headers: trashed.headers },
  );
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  // Any member may send it: the database decides task by task, and a viewer is told how many it refused.
  const { member, supabase } = await signedIn(request, context, { workspace: params.workspace });
  requireProject(request, context, member, params.project);
  const formData = await readForm(request);
  const { intent } = readIntent(formData, ListIntent);
  return json(await bulkEdit(supabase, formData, intent === 'bulk-trash'));
}

/** The list; a saved view's page draws it too, with the view's name and its own controls. */
export default function List({ title, savedView }: { title?: string; savedView?: ReactNode }) {
  const {
    project,
    statuses,
    tasks,
    count,
    total,
    people,
    labels,
    filters,
    sort,
    shown,
    today,
    timeZone,
    workspaceId,
    canEdit,
    canTrash,
    canManage,
    me,
    trashed,
  } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const { workspace = '' } = useParams();
  // Another person's change reloads the list (coalesced), as it reloads the board.
  const { state: live } = useLiveBoard(project.id, me, {
    workspaceId,
    taskIds: tasks.map((t) => t.id),
    labelIds: labels.map((l) => l.id),
  });
  useReaderDay(today, timeZone);
  const filtered = isFiltered(filters);

  return (
    <div>
      <header className="flex flex-wrap items-baseline gap-3" data-live={live}>
        <ProjectHeading project={project} current="list" title={title} />
        <p className="text-sm text-slate-600">
          {filtered ? `${count} of ${total} tasks match` : `${total} ${total === 1 ? 'task' : 'tasks'}`}
        </p>
        {savedView ? null : <SaveView canShare={canManage} kind="list" />}
      </header>
      {savedView ? <div className="mt-2 flex flex-wrap items-center gap-3">{savedView}</div> : null}
      <BoardFilters filters={filters} people={people} labels={labels} me={me.id} active={filtered} />
      <BulkMessage reply={reply} />
      {filtered && count === 0 ? (
        <NoMatches />
      ) : (
        <>
          <PhoneSort sort={sort} searchParams={searchParams} />
          <ListTable
            tasks={tasks}
            statuses={statuses}
            people={people}
            projectKey={project.key}
            sort={sort}
            shown={shown}
            count={count}
            today={today}
            timeZone={timeZone}
            searchParams={searchParams}
            canEdit={canEdit}
            canTrash={canTrash}
            reply={reply}
          />
        </>
      )}
      <Outlet />
      <TrashedNotice notice={trashed} workspaceSlug={workspace} />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.project.name ?? 'List'} · List · Crewboard` },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
