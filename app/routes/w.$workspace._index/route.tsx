import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData, useRouteLoaderData } from '@remix-run/react';
import { randomUUID } from 'node:crypto';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { useClock, useReaderDay } from '~/components/time.tsx';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { isOpenCategory, STATUS_CATEGORIES, type StatusCategory } from '~/utils/board.ts';
import { classifyDataError } from '~/utils/data-errors.server.ts';
import { publicAvatarUrl } from '~/utils/files.server.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import { calendarDate } from '~/utils/format.ts';
import { pageQuery, type PageQueryAnswer } from '~/utils/session/page-query.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { atLeast } from '~/utils/roles.ts';
import { readTimeZone } from '~/utils/time-zone.server.ts';
import { ProjectSchema } from '~/utils/workspace-schemas.ts';
import { nextProjectKey, projectPath } from '~/utils/projects.ts';
import type { loader as workspaceLoader } from '../w.$workspace.tsx';
import { ActivityFeed, type ActivityEntry } from './activity.tsx';
import { MyTasks, type MyTask } from './my-tasks.tsx';
import { NewProject, Welcome } from './new-project.tsx';
import { ProjectList, type ProjectSummary } from './projects.tsx';
import { signedIn } from '~/utils/session/signed-in.server.ts';

/** How many of my tasks the overview lists, and how many "Show all" does. */
const MY_TASKS = 8;
const ALL_MY_TASKS = 200;
const ACTIVITY = 30;

/** What `overview_page` answers (supabase/migrations/20261123170300_overview_page_keys.sql). */
interface OverviewPageAnswer extends PageQueryAnswer {
  counts: Array<{ project_id: string; category: StatusCategory; count: number; overdue: number }>;
  my_tasks: MyTask[];
  my_task_count: number;
  activity: Array<{
    id: number;
    kind: string;
    data: Record<string, unknown>;
    created_at: string;
    project_id: string | null;
    actor_id: string | null;
  }>;
  people: Array<{ id: string; display_name: string; avatar_path: string | null }>;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const slug = params.workspace ?? '';
  const allMine = new URL(request.url).searchParams.get('mine') === 'all';
  // The server's clock and the reader's zone, passed to the page so that its relative times read
  // the same in the server's render and in the browser's hydration (app/components/time.tsx).
  const now = new Date().toISOString();
  const timeZone = readTimeZone(request);
  const args = {
    workspace_slug: slug,
    today: calendarDate(now, timeZone),
    my_task_limit: allMine ? ALL_MY_TASKS : MY_TASKS,
    activity_limit: ACTIVITY,
  };
  // The session check, the workspace and the overview in one request.
  const { member: membership, data: page } = await signedIn(request, context, {
    workspace: slug,
    query: pageQuery<OverviewPageAnswer>('overview_page', args),
  });

  const projects: ProjectSummary[] = membership.projects.map((p) => {
    const counts = Object.fromEntries(STATUS_CATEGORIES.map((c) => [c, 0])) as Record<StatusCategory, number>;
    let overdue = 0;
    for (const c of page.counts)
      if (c.project_id === p.id) {
        counts[c.category] = c.count;
        overdue += c.overdue;
      }
    return { ...p, counts, overdue };
  });
  const people = new Map(
    page.people.map((p) => [p.id, { name: p.display_name, avatarUrl: publicAvatarUrl(p.avatar_path) }]),
  );
  const projectsById = new Map(membership.projects.map((p) => [p.id, p]));
  const activity: ActivityEntry[] = page.activity.map((a) => {
    // Someone no longer in the workspace has no profile the caller may read.
    const assignee =
      typeof a.data.assignee_id === 'string' ? (people.get(a.data.assignee_id)?.name ?? 'someone') : null;
    return {
      id: a.id,
      kind: a.kind,
      createdAt: a.created_at,
      projectId: a.project_id,
      projectKey: a.project_id ? (projectsById.get(a.project_id)?.key ?? null) : null,
      projectName: a.project_id ? (projectsById.get(a.project_id)?.name ?? null) : null,
      actor: a.actor_id ? (people.get(a.actor_id) ?? null) : null,
      number: typeof a.data.number === 'number' ? a.data.number : null,
      title: typeof a.data.title === 'string' ? a.data.title : null,
      name: typeof a.data.name === 'string' ? a.data.name : null,
      to: typeof a.data.to === 'string' ? a.data.to : null,
      assignee,
    };
  });
  return json({
    clock: { now, timeZone },
    today: args.today,
    projects,
    myTasks: page.my_tasks,
    myTaskCount: page.my_task_count,
    allMine,
    activity,
    canCreate: atLeast(membership.role, 'admin'),
    // The create form's one-time key: sent twice (a retry after a lost answer), it makes one project.
    createKey: randomUUID(),
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  const { user, member, supabase } = await signedIn(request, context, {
    workspace: params.workspace,
    minRole: 'admin',
  });
  const { workspace, projects } = member;
  const submission = parseWithZod(await readForm(request), { schema: ProjectSchema });
  const key = submission.status === 'success' ? submission.value.key : undefined;
  if (submission.status !== 'success') return json({ key, result: submission.reply() }, { status: 400 });
  const keyTaken = () =>
    json(
      {
        key,
        result: submission.reply({
          fieldErrors: { projectKey: ['That key is taken in this workspace. Try another.'] },
        }),
      },
      { status: 409 },
    );
  // A key left blank is the first one free that the name suggests (the workspace's keys came with the
  // membership). A key that is taken is refused by the unique index: not beforehand here, because a
  // repeated create (same create key) must find its project rather than a taken key.
  const projectKey =
    submission.value.projectKey ??
    nextProjectKey(
      submission.value.name,
      projects.map((p) => p.key),
    );
  const row = {
    workspace_id: workspace.id,
    key: projectKey,
    name: submission.value.name,
    description: submission.value.description ?? '',
    client_key: key ?? null,
  };
  const { data, error } = key
    ? await supabase
        .from('projects')
        .upsert(row, { onConflict: 'created_by,client_key', ignoreDuplicates: true })
        .select('key')
    : await supabase.from('projects').insert(row).select('key');
  // A repeat of a create that was saved returns the first result: the project made then.
  const made =
    error || data.length > 0 || !key
      ? { data: data?.[0] ?? null, error }
      : await supabase
          .from('projects')
          .select('key')
          .eq('created_by', user.id)
          .eq('client_key', key)
          .maybeSingle();
  if (made.error || !made.data) {
    const failure = made.error
      ? classifyDataError(made.error)
      : { kind: 'not_found', status: 404, message: '' };
    // The one unique index a new project can run into (a repeated create key is no error).
    if (failure.kind === 'conflict') return keyTaken();
    const message = failure.kind === 'forbidden' ? 'Only admins can create projects here.' : failure.message;
    return json({ key, result: submission.reply({ formErrors: [message] }) }, { status: failure.status });
  }
  return redirectWithSession(projectPath(workspace.slug, made.data.key), request, context);
}

export default function Overview() {
  const data = useLoaderData<typeof loader>();
  const layout = useRouteLoaderData<typeof workspaceLoader>('routes/w.$workspace');
  const actionData = useActionData<typeof action>();
  const clock = useClock(data.clock);
  useReaderDay(data.today, data.clock.timeZone);
  const slug = layout?.workspace.slug ?? '';
  const active = data.projects.filter((p) => !p.archived_at);
  const open = active.reduce(
    (sum, p) => sum + STATUS_CATEGORIES.filter(isOpenCategory).reduce((n, c) => n + p.counts[c], 0),
    0,
  );
  const form = {
    createKey: data.createKey,
    reply: actionData,
    takenKeys: data.projects.map((p) => p.key),
  };

  if (data.projects.length === 0) {
    return (
      <Welcome
        workspaceName={layout?.workspace.name ?? ''}
        personal={layout?.workspace.is_personal ?? false}
        canCreate={data.canCreate}
        slug={slug}
        form={form}
      />
    );
  }
  return (
    <div className="mx-auto max-w-6xl space-y-10">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{layout?.workspace.name}</h1>
          <p className="mt-1 text-sm text-slate-500">
            {plural(active.length, 'active project')} · {plural(open, 'open task')}
          </p>
        </div>
        {data.canCreate ? <NewProject form={form} /> : null}
      </header>
      <ProjectList projects={data.projects} slug={slug} />
      <div className="grid gap-10 lg:grid-cols-2 lg:gap-8">
        <MyTasks
          tasks={data.myTasks}
          total={data.myTaskCount}
          all={data.allMine}
          limit={MY_TASKS}
          projects={data.projects}
          slug={slug}
          today={data.today}
        />
        <ActivityFeed entries={data.activity} clock={clock} slug={slug} />
      </div>
    </div>
  );
}

function plural(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
