import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, NavLink, Outlet, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { requireMember } from '~/utils/workspace.server.ts';

// The workspace layout: its sidebar of projects. Children reuse this data; they never load it again.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { workspace, role, user, projects } = await requireMember(request, context, params.workspace);
  return json({ workspace, role, email: user.email, projects });
}

export default function WorkspaceLayout() {
  const { workspace, projects, email } = useLoaderData<typeof loader>();
  const link =
    'block rounded-md px-3 py-1.5 text-sm hover:bg-slate-100 aria-[current=page]:bg-slate-200 aria-[current=page]:font-medium';
  return (
    <div className="mx-auto flex min-h-screen max-w-7xl flex-col md:flex-row">
      <aside className="border-b border-slate-200 bg-white p-4 md:w-60 md:shrink-0 md:border-b-0 md:border-r">
        <Link to="/w" className="text-xs font-semibold uppercase tracking-wide text-indigo-600">
          Crewboard
        </Link>
        <p className="mt-2 truncate text-lg font-semibold">{workspace.name}</p>
        <nav aria-label="Workspace" className="mt-4 space-y-1">
          <NavLink to="." end className={link}>
            Overview
          </NavLink>
          <NavLink to="search" className={link}>
            Search
          </NavLink>
          <NavLink to="members" className={link}>
            Members
          </NavLink>
          <NavLink to="settings" className={link}>
            Settings
          </NavLink>
        </nav>
        <h2 className="mt-6 px-3 text-xs font-semibold uppercase tracking-wide text-slate-500">Projects</h2>
        <nav aria-label="Projects" className="mt-2 space-y-1">
          {projects.map((p) => (
            <NavLink key={p.id} to={`p/${p.id}`} className={link}>
              {p.name}
              {p.archived_at ? <span className="ml-1 text-xs text-slate-500">(archived)</span> : null}
            </NavLink>
          ))}
        </nav>
        <div className="mt-6 border-t border-slate-200 pt-4 text-sm text-slate-600">
          <p className="truncate">{email}</p>
          <div className="mt-2 flex gap-3">
            <Link to="/account" className="hover:underline">
              Account
            </Link>
            <Form method="post" action="/logout">
              <button type="submit" className="hover:underline">
                Sign out
              </button>
            </Form>
          </div>
        </div>
      </aside>
      <main className="min-w-0 flex-1 p-4 md:p-6">
        <Outlet />
      </main>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.workspace.name ?? 'Workspace'} · Crewboard` },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
