import { getFormProps } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, Outlet, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { redirectWithSession } from '~/utils/auth.server.ts';
import { MESSAGES } from '~/utils/messages.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { MoveTaskSchema, NewTaskSchema, TASK_STATUSES } from '~/utils/schemas.ts';
import { getSupabase } from '~/utils/supabase.server.ts';
import { atLeast } from '~/utils/roles.ts';
import { requireMember } from '~/utils/workspace.server.ts';

type Status = (typeof TASK_STATUSES)[number];

const COLUMN: Record<Status, string> = {
  backlog: 'Backlog',
  todo: 'To do',
  in_progress: 'In progress',
  done: 'Done',
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function loadBoard(
  request: Request,
  context: LoaderFunctionArgs['context'],
  params: LoaderFunctionArgs['params'],
) {
  const membership = await requireMember(request, context, params.workspace);
  if (!params.project || !UUID.test(params.project)) throw new Response('Not found', { status: 404 });
  const { supabase } = getSupabase(request, context);
  // The project and its tasks in one request.
  const { data, error } = await supabase
    .from('projects')
    .select(
      'id, name, description, archived_at, tasks(id, number, title, status, position, priority, due_date, assignee:profiles!tasks_assignee_profile_fkey(display_name))',
    )
    .eq('id', params.project)
    .eq('workspace_id', membership.workspace.id)
    .order('position', { referencedTable: 'tasks' })
    .maybeSingle();
  if (error) throw new Response('Backend unavailable', { status: 503 });
  if (!data) throw new Response('Not found', { status: 404 });
  const { tasks, ...project } = data;
  return { membership, project, tasks };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { membership, project, tasks } = await loadBoard(request, context, params);
  const canEdit = atLeast(membership.role, 'member') && project.archived_at === null;
  return json({ project, tasks, canEdit });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  const { membership, project, tasks } = await loadBoard(request, context, params);
  if (!atLeast(membership.role, 'member')) throw new Response('Not found', { status: 404 });
  const formData = await request.formData();
  const { supabase } = getSupabase(request, context);
  const boardUrl = `/w/${membership.workspace.slug}/p/${project.id}`;

  if (formData.get('intent') === 'create') {
    const submission = parseWithZod(formData, { schema: NewTaskSchema });
    const status = String(formData.get('status') ?? '');
    if (submission.status !== 'success') return json({ status, result: submission.reply() }, { status: 400 });
    const { error } = await supabase.from('tasks').insert({
      workspace_id: membership.workspace.id,
      project_id: project.id,
      title: submission.value.title,
      status: submission.value.status,
    });
    if (error) {
      const message =
        error.code === '42501'
          ? 'This project is archived: its board is read-only.'
          : MESSAGES.backend_unavailable;
      return json(
        { status, result: submission.reply({ formErrors: [message] }) },
        { status: error.code === '42501' ? 403 : 503 },
      );
    }
    return redirectWithSession(boardUrl, request, context);
  }

  const move = MoveTaskSchema.safeParse(Object.fromEntries(formData));
  if (!move.success) throw new Response('Bad request', { status: 400 });
  const { taskId, status, direction } = move.data;
  const task = tasks.find((t) => t.id === taskId);
  if (!task) throw new Response('Not found', { status: 404 });
  // The column it lands in, without the task itself, top to bottom.
  const column = tasks.filter((t) => t.status === status && t.id !== taskId);
  let neighbours: { after_task_id?: string; before_task_id?: string } = {};
  if (status === task.status) {
    const index = tasks.filter((t) => t.status === status).findIndex((t) => t.id === taskId);
    const target = direction === 'up' ? index - 1 : direction === 'down' ? index + 1 : index;
    // Same column, nowhere to go (top moved up, bottom moved down, or no direction): nothing changes.
    if (target === index || target < 0 || target > column.length)
      return redirectWithSession(boardUrl, request, context);
    neighbours = { after_task_id: column[target - 1]?.id, before_task_id: column[target]?.id };
  }
  const { error } = await supabase.rpc('move_task', { task_id: taskId, status, ...neighbours });
  if (error)
    throw new Response(error.code === '42501' ? 'Forbidden' : 'Backend unavailable', {
      status: error.code === '42501' ? 403 : 503,
    });
  return redirectWithSession(boardUrl, request, context);
}

function NewTaskForm({
  status,
  reply,
}: {
  status: Status;
  reply: ReturnType<typeof useActionData<typeof action>>;
}) {
  const [form, fields] = useSchemaForm(
    `new-task-${status}`,
    NewTaskSchema,
    reply?.status === status ? reply.result : undefined,
  );
  return (
    <Form method="post" {...getFormProps(form)} className="mt-3 space-y-2">
      <input type="hidden" name="status" value={status} />
      {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <Field label="Title" field={fields.title} type="text" />
      <SubmitButton name="intent" value="create">
        Create task
      </SubmitButton>
    </Form>
  );
}

export default function Board() {
  const { project, tasks, canEdit } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div>
      <header className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-xl font-semibold">{project.name}</h1>
        {project.archived_at ? (
          <span className="rounded bg-slate-200 px-2 py-0.5 text-xs">Archived: read-only</span>
        ) : null}
      </header>
      <div className="mt-4 grid gap-4 md:grid-cols-2 xl:grid-cols-4">
        {TASK_STATUSES.map((status) => {
          const column = tasks.filter((t) => t.status === status);
          return (
            <section key={status} aria-label={COLUMN[status]} className="rounded-lg bg-slate-100 p-3">
              <h2 className="text-sm font-semibold text-slate-700">
                {COLUMN[status]} <span className="font-normal text-slate-500">{column.length}</span>
              </h2>
              <ol className="mt-2 space-y-2">
                {column.map((task, index) => (
                  <li key={task.id} className="rounded-md border border-slate-200 bg-white p-3 shadow-sm">
                    <Link to={`t/${task.number}`} className="font-medium hover:underline">
                      <span className="text-slate-500">#{task.number}</span> {task.title}
                    </Link>
                    <p className="mt-1 text-xs text-slate-500">
                      {task.assignee?.display_name ?? 'Unassigned'}
                      {task.priority !== 'none' ? ` · ${task.priority}` : ''}
                      {task.due_date ? ` · due ${task.due_date}` : ''}
                    </p>
                    {canEdit ? (
                      <Form method="post" className="mt-2 flex flex-wrap items-center gap-2 text-sm">
                        <input type="hidden" name="taskId" value={task.id} />
                        <label className="sr-only" htmlFor={`status-${task.id}`}>
                          Status of #{task.number}
                        </label>
                        <select
                          id={`status-${task.id}`}
                          name="status"
                          defaultValue={task.status}
                          className="rounded border border-slate-300 px-1 py-0.5"
                        >
                          {TASK_STATUSES.map((s) => (
                            <option key={s} value={s}>
                              {COLUMN[s]}
                            </option>
                          ))}
                        </select>
                        <button
                          type="submit"
                          className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50"
                        >
                          Move
                        </button>
                        <button
                          type="submit"
                          name="direction"
                          value="up"
                          disabled={index === 0}
                          aria-label={`Move #${task.number} up`}
                          className="rounded border border-slate-300 px-2 py-0.5 disabled:opacity-40"
                        >
                          ↑
                        </button>
                        <button
                          type="submit"
                          name="direction"
                          value="down"
                          disabled={index === column.length - 1}
                          aria-label={`Move #${task.number} down`}
                          className="rounded border border-slate-300 px-2 py-0.5 disabled:opacity-40"
                        >
                          ↓
                        </button>
                      </Form>
                    ) : null}
                  </li>
                ))}
              </ol>
              {canEdit ? <NewTaskForm status={status} reply={actionData} /> : null}
            </section>
          );
        })}
      </div>
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
