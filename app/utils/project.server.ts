// The project a `/w/:workspace/p/:project/…` address names, for the routes under it. Addresses carry
// the project's key in lower case (`/p/web`); the key is found in any case and answered with the
// canonical address, and the UUID addresses from before projects had keys answer with a permanent
// redirect to the key's, keeping the rest of the path and the query. Keys come with the membership
// (the sidebar's projects), so none of this asks the backend anything more.
import type { AppLoadContext } from '@remix-run/node';
import { notFound } from './data-errors.server.ts';
import { projectPath } from './projects.ts';
import type { Membership } from './session/membership.server.ts';
import { signedIn } from './session/signed-in.server.ts';
import { redirectWithSession } from './session/user.server.ts';
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

/** The workspace of an address under a project's UUID (`/w/<workspace>/p/<uuid>/…`), else null. */
export function legacyProjectWorkspace(request: Request): string | null {
  const match = PROJECT_ADDRESS.exec(new URL(request.url).pathname);
  return match && isLegacyProjectParam(match[2]) ? decodeURIComponent(match[1] ?? '') : null;
}

/**
 * For an address under the UUID of a project the member can see: a 301 to the same address under its
 * key. Null otherwise: a project that is not there and one that is not theirs both end in a 404.
 */
export function legacyProjectRedirect(
  request: Request,
  context: AppLoadContext,
  member: Membership,
): Response | null {
  const url = new URL(request.url);
  const match = PROJECT_ADDRESS.exec(url.pathname);
  if (!match || !isLegacyProjectParam(match[2])) return null;
  const [, , id = '', rest = ''] = match;
  const project = member.projects.find((p) => p.id === id.toLowerCase());
  if (!project) return null;
  return redirectWithSession(
    `${projectPath(member.workspace.slug, project.key)}${rest}${url.search}`,
    request,
    context,
    { status: 301 },
  );
}

/**
 * The project `key` names among the member's projects; a 301 for an old or non-canonical address, a
 * 404 when the caller cannot see it.
 */
export function requireProject(
  request: Request,
  context: AppLoadContext,
  member: Membership,
  key: string | undefined,
): Membership['projects'][number] {
  canonicalProjectAddress(request, key);
  if (isLegacyProjectParam(key)) throw legacyProjectRedirect(request, context, member) ?? notFound();
  const project = member.projects.find((p) => p.key === (key ?? '').toUpperCase());
  if (!project) throw notFound();
  return project;
}

/**
 * A project page's own address (the board's, the list's), before its page call: one in capitals is
 * answered with the one in lower case, one under a project's UUID with the key's (a 404 when the
 * caller cannot see it). Resolves at once for any other address, so the page's call is still the
 * request's first.
 */
export async function checkProjectPageAddress(
  request: Request,
  context: AppLoadContext,
  workspace: string,
  project: string,
): Promise<void> {
  canonicalProjectAddress(request, project);
  if (isLegacyProjectParam(project)) {
    const { member } = await signedIn(request, context, { workspace });
    throw legacyProjectRedirect(request, context, member) ?? notFound();
  }
}
