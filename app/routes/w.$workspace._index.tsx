import { getFormProps } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useRouteLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { redirectWithSession } from '~/utils/auth.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { ProjectSchema } from '~/utils/workspace-schemas.ts';
import { getSupabase } from '~/utils/supabase.server.ts';
import { atLeast } from '~/utils/roles.ts';
import { requireMember } from '~/utils/workspace.server.ts';
import type { loader as workspaceLoader } from './w.$workspace.tsx';
import { readForm } from '~/utils/form-body.server.ts';
import { classifyDataError, dataErrorResponse } from '~/utils/data-errors.server.ts';
import { randomUUID } from 'node:crypto';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { workspace } = await requireMember(request, context, params.workspace);
  const { supabase } = getSupabase(request, context);
  const { data, error } = await supabase
    .from('activity')
    .select('id, kind, data, created_at, actor:profiles!activity_actor_profile_fkey(display_name)')
    .eq('workspace_id', workspace.id)
    .order('created_at', { ascending: false })
    .limit(20);
  if (error) throw dataErrorResponse(error);
  // The create form's one-time key: sent twice (a retry after a lost answer), it makes one project.
  return json({ activity: data, createKey: randomUUID() });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  const { workspace, user } = await requireMember(request, context, params.workspace, 'admin');
  const submission = parseWithZod(await readForm(request), { schema: ProjectSchema });
  const key = submission.status === 'success' ? submission.value.key : undefined;
  if (submission.status !== 'success') return json({ key, result: submission.reply() }, { status: 400 });
  const { supabase } = getSupabase(request, context);
  const row = {
    workspace_id: workspace.id,
    name: submission.value.name,
    description: submission.value.description ?? '',
    client_key: key ?? null,
  };
  const { data, error } = key
    ? await supabase
        .from('projects')
        .upsert(row, { onConflict: 'created_by,client_key', ignoreDuplicates: true })
        .select('id')
    : await supabase.from('projects').insert(row).select('id');
  // A repeat of a create that was saved returns the first result: the project made then.
  const made =
    error || data.length > 0 || !key
      ? { data: data?.[0] ?? null, error }
      : await supabase
          .from('projects')
          .select('id')
          .eq('created_by', user.id)
          .eq('client_key', key)
          .maybeSingle();
  if (made.error || !made.data) {
    const failure = made.error
      ? classifyDataError(made.error)
      : { kind: 'not_found', status: 404, message: '' };
    const message = failure.kind === 'forbidden' ? 'Only admins can create projects here.' : failure.message;
    return json({ key, result: submission.reply({ formErrors: [message] }) }, { status: failure.status });
  }
  return redirectWithSession(`/w/${workspace.slug}/p/${made.data.id}`, request, context);
}

const STATUS: Record<string, string> = {
  backlog: 'Backlog',
  todo: 'To do',
  in_progress: 'In progress',
  done: 'Done',
};

function describe(kind: string, data: Record<string, unknown>): string {
  const task = data.number ? `#${String(data.number)} ${String(data.title ?? '')}` : '';
  switch (kind) {
    case 'task_created':
      return `created ${task}`;
    case 'task_moved':
      return `moved ${task} to ${STATUS[String(data.to)] ?? String(data.to)}`;
    case 'task_assigned':
      return `assigned ${task}`;
    case 'task_deleted':
      return `deleted ${task}`;
    case 'comment_added':
      return `commented on ${task}`;
    case 'project_created':
      return `created the project ${String(data.name ?? '')}`;
    case 'project_archived':
      return `archived ${String(data.name ?? '')}`;
    case 'project_restored':
      return `restored ${String(data.name ?? '')}`;
    case 'member_joined':
      return 'joined the workspace';
    case 'member_left':
      return 'left the workspace';
    default:
      return kind;
  }
}

export default function Overview() {
  const { activity, createKey } = useLoaderData<typeof loader>();
  const layout = useRouteLoaderData<typeof workspaceLoader>('routes/w.$workspace');
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm('new-project', ProjectSchema, actionData?.result);
  const canManage = layout ? atLeast(layout.role, 'admin') : false;
  return (
    <div className="space-y-8">
      <section aria-labelledby="projects-title">
        <h1 id="projects-title" className="text-xl font-semibold">
          Projects
        </h1>
        {layout && layout.projects.length > 0 ? (
          <ul className="mt-3 grid gap-3 sm:grid-cols-2">
            {layout.projects.map((p) => (
              <li key={p.id}>
                <Link
                  to={`p/${p.id}`}
                  className="block rounded-lg border border-slate-200 bg-white p-4 hover:border-indigo-300"
                >
                  <span className="font-medium">{p.name}</span>
                  {p.archived_at ? <span className="ml-2 text-xs text-slate-500">Archived</span> : null}
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3 text-slate-600">No projects yet.</p>
        )}
        {canManage ? (
          <Form
            method="post"
            {...getFormProps(form)}
            className="mt-6 max-w-md space-y-4 rounded-lg border border-slate-200 bg-white p-5"
          >
            <h2 className="text-base font-semibold">New project</h2>
            <input type="hidden" name="key" value={actionData?.key ?? createKey} />
            {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
            <Field label="Project name" field={fields.name} type="text" />
            <SubmitButton>Create project</SubmitButton>
          </Form>
        ) : null}
      </section>
      <section aria-labelledby="activity-title">
        <h2 id="activity-title" className="text-lg font-semibold">
          Recent activity
        </h2>
        <ol className="mt-3 space-y-2 text-sm">
          {activity.map((a) => (
            <li key={a.id} className="text-slate-700">
              <span className="font-medium">{a.actor?.display_name ?? 'Someone'}</span>{' '}
              {describe(a.kind, a.data as Record<string, unknown>)}
              <time className="ml-2 text-slate-500" dateTime={a.created_at}>
                {new Date(a.created_at).toLocaleString('en-GB', {
                  dateStyle: 'medium',
                  timeStyle: 'short',
                  timeZone: 'UTC',
                })}
              </time>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
