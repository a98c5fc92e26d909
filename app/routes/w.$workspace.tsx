import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, NavLink, Outlet, useLoaderData, useLocation } from '@remix-run/react';
import { Fragment, useEffect, useState } from 'react';
import { AccountLinks } from '~/components/account-links.tsx';
import { CommandPalette } from '~/components/command-palette.tsx';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { InboxLink } from '~/components/inbox-link.tsx';
import { SavedViewLinks } from '~/components/saved-view-links.tsx';
import { sidebarViews } from '~/utils/saved-views.server.ts';
import { projectPath } from '~/utils/projects.ts';
import { atLeast } from '~/utils/roles.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';
import { useHydrated } from '~/components/hydrated.ts';

// The workspace layout: its sidebar of projects. Children reuse this data; they never load it again.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user, member } = await signedIn(request, context, { workspace: params.workspace });
  const { workspace, role, projects, unread } = member;
  const views = sidebarViews(member);
  return json({ workspace, role, email: user.email, projects, unread, views });
}

export default function WorkspaceLayout() {
  const { workspace, role, projects, email, unread, views } = useLoaderData<typeof loader>();
  const menuButton =
    'shrink-0 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100';
  // On a phone the sidebar is a menu (CSS: .workspace-menu). Without JavaScript a link opens it as the
  // page's target and another closes it; with JavaScript a button toggles it, and a move closes it.
  const hydrated = useHydrated();
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setMenuOpen(false), [pathname]);
  return (
    <div className="workspace-shell mx-auto flex min-h-screen max-w-7xl flex-col md:flex-row">
      {/* The phone's top bar is the page's banner, so it sits in a landmark like everything else. */}
      <header className="flex items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-2.5 md:hidden">
        <p className="min-w-0 truncate font-semibold">
          <Link to="/w" className="text-indigo-600">
            Crewboard
          </Link>
          <span aria-hidden="true" className="mx-1.5 text-slate-400">
            /
          </span>
          {workspace.name}
        </p>
        {hydrated ? (
          <button
            type="button"
            aria-expanded={menuOpen}
            aria-controls="workspace-menu"
            onClick={() => setMenuOpen((open) => !open)}
            className={menuButton}
          >
            Menu
          </button>
        ) : (
          <a href="#workspace-menu" className={menuButton}>
            Menu
          </a>
        )}
      </header>
      <aside
        id="workspace-menu"
        data-open={menuOpen || undefined}
        className="workspace-menu border-b border-slate-200 bg-white p-4 md:w-60 md:shrink-0 md:border-b-0 md:border-r"
      >
        {hydrated ? null : (
          <a
            href="#"
            className="float-right rounded-md px-2 py-1 text-sm font-medium hover:bg-slate-100 md:hidden"
          >
            Close menu
          </a>
        )}
        <Link
          to="/w"
          className="hidden text-xs font-semibold uppercase tracking-wide text-indigo-600 md:inline"
        >
          Crewboard
        </Link>
        <p className="mt-2 hidden truncate text-lg font-semibold md:block">{workspace.name}</p>
        <nav aria-label="Notifications" className="md:mt-4">
          <InboxLink unread={unread} />
        </nav>
        <nav aria-label="Workspace" className="mt-1 space-y-1">
          <NavLink to="." end className="nav-link">
            Overview
          </NavLink>
          <NavLink to="search" className="nav-link">
            Search
          </NavLink>
          <NavLink to="members" className="nav-link">
            Members
          </NavLink>
          <NavLink to="labels" className="nav-link">
            Labels
          </NavLink>
          <NavLink to="settings" className="nav-link">
            Settings
          </NavLink>
          {atLeast(role, 'admin') ? (
            <NavLink to="trash" className="nav-link">
              Trash
            </NavLink>
          ) : null}
        </nav>
        <h2 className="mt-6 px-3 text-xs font-semibold uppercase tracking-wide text-slate-500">Projects</h2>
        <nav aria-label="Projects" className="mt-2 space-y-1">
          {projects.map((p) => (
            <Fragment key={p.id}>
              <NavLink to={projectPath(workspace.slug, p.key)} className="nav-link">
                {p.name}
                {p.archived_at ? <span className="ml-1 text-xs text-slate-500">(archived)</span> : null}
              </NavLink>
              <SavedViewLinks views={views.filter((v) => v.project_id === p.id)} />
            </Fragment>
          ))}
        </nav>
        <div className="mt-6 border-t border-slate-200 pt-4 text-sm text-slate-600">
          <p className="truncate">{email}</p>
          <div className="mt-2 flex gap-3">
            <AccountLinks />
          </div>
        </div>
      </aside>
      <main className="min-w-0 flex-1 p-4 md:p-6">
        <Outlet />
      </main>
      <CommandPalette workspace={{ slug: workspace.slug, projects, canCreate: atLeast(role, 'member') }} />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.workspace.name ?? 'Workspace'} · Crewboard` },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
