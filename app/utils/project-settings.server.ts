// A project's settings and its import are for the workspace's admins and owner (SPEC section 6):
// anyone else finds no page. The database refuses them too (the policies on statuses, task_imports'
// insert policy, public.import_tasks).
import type { AppLoadContext, LoaderFunctionArgs } from '@remix-run/node';
import { canonicalProjectAddress, requireProject } from './project.server.ts';
import { signedIn } from './session/signed-in.server.ts';

export async function requireProjectSettings(
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
