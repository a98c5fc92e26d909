import { getFormProps } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { AccountLinks } from '~/components/account-links.tsx';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { slugFromName, WorkspaceSchema } from '~/utils/workspace-schemas.ts';
import { useFollowsName } from '~/components/follows-name.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { classifyDataError } from '~/utils/data-errors.server.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';
import { memberWorkspaces } from '~/utils/workspaces.server.ts';
import { CommandPalette } from '~/components/command-palette.tsx';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, supabase } = await signedIn(request, context);
  return json({
    // The site's own host, as the browser asked for it, names the address in the form's hint.
    host: new URL(request.url).host,
    workspaces: await memberWorkspaces(supabase, user.id),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameSite(request);
  const { supabase } = await signedIn(request, context);
  const form = await readForm(request);
  // Left empty (without JavaScript nothing fills it in), the address comes from the name.
  if (!String(form.get('slug') ?? '').trim()) form.set('slug', slugFromName(String(form.get('name') ?? '')));
  const submission = parseWithZod(form, { schema: WorkspaceSchema });
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 });
  const { data, error } = await supabase.rpc('create_workspace', submission.value);
  if (error) {
    const failure = classifyDataError(error);
    // The database refuses a taken address (unique) and a reserved one (check) on its own.
    if (failure.kind === 'conflict' || failure.kind === 'invalid') {
      const message =
        failure.kind === 'conflict'
          ? 'That address is taken. Try another.'
          : 'That address is reserved. Try another.';
      return json(
        { result: submission.reply({ fieldErrors: { slug: [message] } }) },
        { status: failure.status },
      );
    }
    return json({ result: submission.reply({ formErrors: [failure.message] }) }, { status: failure.status });
  }
  return redirectWithSession(`/w/${data.slug}`, request, context);
}

const ROLE_LABEL: Record<string, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
};

export default function Workspaces() {
  const { host, workspaces } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm('new-workspace', WorkspaceSchema, actionData?.result);
  useFollowsName(fields.name.id, fields.slug.id, slugFromName);
  return (
    <main className="mx-auto max-w-3xl px-4 py-8">
      <header className="flex items-center justify-between">
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-600">Crewboard</p>
        <div className="flex items-center gap-4 text-sm font-medium text-slate-700">
          <AccountLinks />
        </div>
      </header>
      <h1 className="mt-6 text-2xl font-semibold">Your workspaces</h1>
      <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
        {workspaces.map((w) => (
          <li key={w.slug}>
            <Link
              to={`/w/${w.slug}`}
              className="flex items-center justify-between px-4 py-3 hover:bg-slate-50"
            >
              <span className="font-medium">{w.name}</span>
              <span className="text-sm text-slate-500">
                {w.personal ? 'Personal · ' : ''}
                {ROLE_LABEL[w.role]}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <section
        aria-labelledby="new-workspace-title"
        className="mt-8 max-w-md rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      >
        <h2 id="new-workspace-title" className="text-base font-semibold">
          Create a workspace
        </h2>
        <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
          {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
          <Field label="Workspace name" field={fields.name} type="text" />
          <Field
            label="Address"
            field={fields.slug}
            type="text"
            hint={`${host}/w/your-address — lowercase letters, digits and hyphens; left blank, it comes from the name.`}
          />
          <SubmitButton>Create workspace</SubmitButton>
        </Form>
      </section>
      <CommandPalette workspace={null} workspaces={workspaces} />
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: 'Workspaces · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
