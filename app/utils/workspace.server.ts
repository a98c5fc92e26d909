// The workspace a route is about, and the signed-in user's role in it, loaded once per request.
import type { AppLoadContext } from '@remix-run/node';
import { requireUser, type SignedInUser } from './auth.server.ts';
import { atLeast, type WorkspaceRole } from './roles.ts';
import { getSupabase } from './supabase.server.ts';
import { dataErrorResponse } from './data-errors.server.ts';
import { pageQuery } from './page-query.server.ts';

export interface Membership {
  user: SignedInUser;
  workspace: { id: string; name: string; slug: string; is_personal: boolean };
  role: WorkspaceRole;
  /** How teammates see the signed-in user (presence on boards). */
  displayName: string;
  /** The workspace's projects, active first: the sidebar's list, loaded in the same request. */
  projects: Array<{ id: string; key: string; name: string; archived_at: string | null }>;
}

// Outcomes, not thrown responses, are shared between the loaders of one request: a Response body can
// be read once, and Remix reads every thrown one. What the session check throws is kept as an outcome
// too: its 503 while the backend is down goes to each loader as a copy of its own; its redirects have
// no body, and stay the one Response the session's cookies were put on.
type Outcome = { membership: Membership } | { status: 404 } | { error: unknown } | { thrown: unknown };

const perRequest = new WeakMap<object, Map<string, Promise<Outcome>>>();

async function loadMembership(request: Request, context: AppLoadContext, slug: string): Promise<Outcome> {
  const user = await requireUser(request, context);
  // The page's combined query (page-query.server.ts) already holds the membership.
  const combined = pageQuery(context, slug);
  if (combined) {
    const { data, error } = await combined;
    if (error || !data) return { error };
    if (!data.membership) return { status: 404 };
    const { workspace, role, display_name, projects } = data.membership;
    return {
      membership: {
        user,
        workspace,
        role,
        displayName: display_name ?? user.email,
        projects: sortProjects(projects),
      },
    };
  }
  const { supabase } = getSupabase(request, context);
  const { data, error } = await supabase
    .from('workspaces')
    .select(
      'id, name, slug, is_personal, workspace_members!inner(role, profile:profiles!workspace_members_profile_fkey(display_name)), projects(id, key, name, archived_at)',
    )
    .eq('slug', slug)
    .eq('workspace_members.user_id', user.id)
    .maybeSingle();
  if (error) return { error };
  // Not a member and not there look the same: whether a workspace exists is private.
  const mine = data?.workspace_members[0];
  const role = mine?.role;
  if (!data || !role) return { status: 404 };
  const projects = sortProjects(data.projects);
  return {
    membership: {
      user,
      workspace: { id: data.id, name: data.name, slug: data.slug, is_personal: data.is_personal },
      role,
      displayName: mine?.profile?.display_name ?? user.email,
      projects,
    },
  };
}

/** Active projects first, then by name: the sidebar's order. */
function sortProjects(projects: Membership['projects']): Membership['projects'] {
  return [...projects].sort(
    (a, b) => Number(a.archived_at !== null) - Number(b.archived_at !== null) || a.name.localeCompare(b.name),
  );
}

/** The caller's membership of `slug`; 404 unless they have at least `minRole` there. */
export async function requireMember(
  request: Request,
  context: AppLoadContext,
  slug: string | undefined,
  minRole: WorkspaceRole = 'viewer',
): Promise<Membership> {
  if (!slug) throw new Response('Not found', { status: 404 });
  let cache = perRequest.get(context);
  if (!cache) {
    cache = new Map();
    perRequest.set(context, cache);
  }
  let pending = cache.get(slug);
  if (!pending) {
    pending = loadMembership(request, context, slug).catch((thrown: unknown) => ({ thrown }));
    cache.set(slug, pending);
  }
  const outcome = await pending;
  if ('thrown' in outcome)
    throw outcome.thrown instanceof Response && outcome.thrown.body !== null
      ? outcome.thrown.clone()
      : outcome.thrown;
  if ('error' in outcome) throw dataErrorResponse(outcome.error);
  if ('status' in outcome) throw new Response('Not found', { status: 404 });
  if (!atLeast(outcome.membership.role, minRole)) throw new Response('Not found', { status: 404 });
  return outcome.membership;
}
