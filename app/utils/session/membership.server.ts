// The workspace a page is about, and the signed-in user's role in it, loaded once per request.
import type { AppLoadContext } from '@remix-run/node';
import { dataErrorResponse, notFound } from '../data-errors.server.ts';
import { atLeast, type WorkspaceRole } from '../roles.ts';
import { requestState, type MembershipOutcome } from './request-state.server.ts';
import { getSupabase } from './supabase.server.ts';
import type { SignedInUser } from './user.server.ts';

export interface Membership {
  workspace: { id: string; name: string; slug: string; is_personal: boolean };
  role: WorkspaceRole;
  /** How teammates see the signed-in user (presence on boards). */
  displayName: string;
  /** The workspace's projects, active first: the sidebar's list, loaded in the same request. */
  projects: Array<{ id: string; key: string; name: string; archived_at: string | null }>;
  /**
   * The caller's unread notifications (up to 100); null when they could not be read, and the sidebar
   * then counts them in the browser.
   */
  unread: number | null;
  /** The caller's saved views of the workspace, by name. */
  views: SidebarView[];
}

/** A saved view the caller reads (their own, and the shared ones): the sidebar's list under its project. */
export interface SidebarView {
  id: string;
  project_id: string;
  name: string;
  kind: string;
  shared: boolean;
  /** Its parameters, as stored (saved-views.ts reads them). */
  query: unknown;
}

async function loadMembership(
  request: Request,
  context: AppLoadContext,
  user: SignedInUser,
  slug: string,
): Promise<MembershipOutcome> {
  // The page call that answered the session check holds the membership of its workspace.
  const call = requestState(context).sessionCall;
  if (call?.workspace === slug && call.started) {
    const { data, error } = await call.started;
    if (error || !data) return { error };
    if (!data.membership) return { status: 404 };
    const { workspace, role, display_name, projects, unread, views } = data.membership;
    return {
      membership: {
        workspace,
        role,
        displayName: display_name ?? user.email,
        projects: sortProjects(projects),
        unread: unread ?? null,
        views: views ?? [],
      },
    };
  }
  const { supabase } = getSupabase(request, context);
  // The unread count is read beside it, in parallel: the sidebar shows it without JavaScript too.
  const [{ data, error }, counted] = await Promise.all([
    supabase
      .from('workspaces')
      .select(
        'id, name, slug, is_personal, workspace_members!inner(role, profile:profiles!workspace_members_profile_fkey(display_name)), projects(id, key, name, archived_at), saved_views(id, project_id, name, kind, shared, query)',
      )
      .eq('slug', slug)
      .eq('workspace_members.user_id', user.id)
      .maybeSingle(),
    supabase.rpc('my_unread_notifications'),
  ]);
  if (error) return { error };
  // Not a member and not there look the same: whether a workspace exists is private.
  const mine = data?.workspace_members[0];
  const role = mine?.role;
  if (!data || !role) return { status: 404 };
  return {
    membership: {
      workspace: { id: data.id, name: data.name, slug: data.slug, is_personal: data.is_personal },
      role,
      displayName: mine?.profile?.display_name ?? user.email,
      projects: sortProjects(data.projects),
      // Without a count (the read failed), the sidebar counts in the browser.
      unread: counted.error ? null : counted.data,
      views: [...data.saved_views].sort(
        (a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id.localeCompare(b.id),
      ),
    },
  };
}

/** Active projects first, then by name: the sidebar's order. */
function sortProjects(projects: Membership['projects']): Membership['projects'] {
  return [...projects].sort(
    (a, b) => Number(a.archived_at !== null) - Number(b.archived_at !== null) || a.name.localeCompare(b.name),
  );
}

/** The user's membership of `slug`; a 404 unless they have at least `minRole` there. */
export async function membershipOf(
  request: Request,
  context: AppLoadContext,
  user: SignedInUser,
  slug: string | undefined,
  minRole: WorkspaceRole,
): Promise<Membership> {
  if (!slug) throw notFound();
  const { memberships } = requestState(context);
  let pending = memberships.get(slug);
  if (!pending) {
    pending = loadMembership(request, context, user, slug);
    memberships.set(slug, pending);
  }
  const outcome = await pending;
  if ('thrown' in outcome)
    throw outcome.thrown instanceof Response && outcome.thrown.body !== null
      ? outcome.thrown.clone()
      : outcome.thrown;
  if ('error' in outcome) throw dataErrorResponse(outcome.error);
  if ('status' in outcome || !atLeast(outcome.membership.role, minRole)) throw notFound();
  return outcome.membership;
}
