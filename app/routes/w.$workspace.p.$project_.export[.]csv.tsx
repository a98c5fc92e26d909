import type { LoaderFunctionArgs } from '@remix-run/node';
import { supabaseEnv } from '~/utils/env.server.ts';
import { applySessionHeaders } from '~/utils/session/supabase.server.ts';
import { requireProject } from '~/utils/project.server.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';

// The board's tasks as a CSV download, made by the `export-tasks` Edge Function as this user (so RLS
// decides: any member, viewers too) and streamed through as it is written. A plain link: it works
// without JavaScript. An outsider, or a project that is not in this workspace, gets 404.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { member, supabase } = await signedIn(request, context, { workspace: params.workspace });
  const project = requireProject(request, context, member, params.project);
  const headers = new Headers();
  applySessionHeaders(headers, context);
  // The session's access token was verified by signedIn (getClaims); the function checks it again.
  const { data } = await supabase.auth.getSession();
  const { url, anonKey } = supabaseEnv();
  const answer = await fetch(`${url}/functions/v1/export-tasks?project=${project.id}`, {
    headers: { Authorization: `Bearer ${data.session?.access_token ?? anonKey}`, apikey: anonKey },
    signal: request.signal,
  });
  if (answer.status === 404) throw new Response('Not found', { status: 404, headers });
  if (!answer.ok || !answer.body) {
    console.warn(`export-tasks answered ${answer.status} for project ${project.id}`);
    throw new Response('The export is unavailable right now. Try again in a moment.', {
      status: 503,
      headers,
    });
  }
  headers.set('Content-Type', 'text/csv; charset=utf-8');
  headers.set(
    'Content-Disposition',
    answer.headers.get('Content-Disposition') ?? 'attachment; filename="tasks.csv"',
  );
  headers.set('Cache-Control', 'private, no-store');
  return new Response(answer.body, { status: 200, headers });
}
