// The command palette's task results: the search page's search, as JSON, a few at a time.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { searchTasks } from '~/utils/search.server.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { member, supabase } = await signedIn(request, context, { workspace: params.workspace });
  const q = new URL(request.url).searchParams.get('q') ?? '';
  return json(await searchTasks(supabase, member.workspace.slug, q, 8));
}
