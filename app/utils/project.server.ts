// The project a `/w/:workspace/p/:project/…` address names, for the routes under it. Addresses carry
// the project's key in lower case (`/p/web`); the key is found in any case and answered with the
// canonical address, and the UUID addresses of before keys (issue 14) answer with a permanent
// redirect to the key's, keeping the rest of the path and the query. Keys come with the membership
// (the sidebar's projects), so none of this asks the backend anything more.
import type { AppLoadContext } from '@remix-run/node';
import { redirectWithSession } from './auth.server.ts';
import { projectPath } from './projects.ts';
import { requireMember, type Membership } from './workspace.server.ts';
import { notFound } from './data-errors.server.ts';
import { isUuid } from './uuid.ts';

/** `/w/<workspace>/p/<project>` and whatever follows it. */
const PROJECT_ADDRESS = /^\/w\/([^/]+)\/p\/([^/]+)(\/.*)?$/;

export function isLegacyProjectParam(project: string | undefined): boolean {
  return project !== undefined && isUuid(project);
}

/**
 * A key written in capitals (`/p/WEB`): the same address in lower case, the canonical one. Needs no
 * backend: whether the project exists is decided there.
 */
export function canonicalProjectAddress(request: Request, project: string | undefined): void {
  if (!project || isLegacyProjectParam(project) || project === project.toLowerCase()) return;
  const url = new URL(request.url);
  const match = PROJECT_ADDRESS.exec(url.pathname);
  if (!match) return;
  const [, workspace = '', , rest = ''] = match;
  throw new Response(null, {
    status: 301,
    headers: { Location: `${projectPath(workspace, project)}${rest}${url.search}` },
  });
}

/**
 * When `request` is for an address under a project's UUID that the caller can see: a 301 to the same
 * address under its key. A project that is not there and one that is not theirs both end in the same
 * 404 (thrown by the caller, or by requireMember when the workspace is not theirs).
 */
export async function legacyProjectRedirect(
  request: Request,
  context: AppLoadContext,
): Promise<Response | null> {
  const url = new URL(request.url);
  const match = PROJECT_ADDRESS.exec(url.pathname);
  if (!match || !isLegacyProjectParam(match[2])) return null;
  const [, slug, id, rest = ''] = match;
  const membership = await requireMember(request, context, decodeURIComponent(slug ?? ''));
  const project = membership.projects.find((p) => p.id === id?.toLowerCase());
  if (!project) return null;
  return redirectWithSession(
    `${projectPath(membership.workspace.slug, project.key)}${rest}${url.search}`,
    request,
    context,
    { status: 301 },
  );
}

/**
 * The project `params.project` names in the caller's workspace, with the membership; a 301 for an old
 * or non-canonical address, a 404 when the caller cannot see it.
 */
export async function requireProject(
  request: Request,
  context: AppLoadContext,
  params: { workspace?: string; project?: string },
): Promise<{ membership: Membership; project: Membership['projects'][number] }> {
  canonicalProjectAddress(request, params.project);
  if (isLegacyProjectParam(params.project)) {
    const redirect = await legacyProjectRedirect(request, context);
    throw redirect ?? notFound();
  }
  const membership = await requireMember(request, context, params.workspace);
  const key = (params.project ?? '').toUpperCase();
  const project = membership.projects.find((p) => p.key === key);
  if (!project) throw notFound();
  return { membership, project };
}
