// Who may import into a project: its workspace's admins and owner (SPEC section 6), as for the
// project's settings. Anyone else finds no page; the database refuses them too (task_imports' insert
// policy and public.import_tasks).
import type { AppLoadContext, LoaderFunctionArgs } from '@remix-run/node';
import { canonicalProjectAddress, requireProject } from '../project.server.ts';
import { signedIn } from '../session/signed-in.server.ts';

export async function requireImporter(
  request: Request,
  context: AppLoadContext,
  params: LoaderFunctionArgs['params'],
) {
  canonicalProjectAddress(request, params.project);
  const { member, supabase } = await signedIn(request, context, {
    workspace: params.workspace,
    minRole: 'admin',
  });
  const project = requireProject(request, context, member, params.project);
  return { member, supabase, project };
}
