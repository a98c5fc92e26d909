import type { LoaderFunctionArgs } from '@remix-run/node';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { dataErrorResponse, notFound } from '~/utils/data-errors.server.ts';
import { isUuid } from '~/utils/uuid.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';

// Downloads an attachment: RLS decides whether this person may read its row; only then does the app
// hand out a signed URL, valid for one minute and always a download (never shown inline).
const DOWNLOAD_SECONDS = 60;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { member, supabase } = await signedIn(request, context, { workspace: params.workspace });
  if (!params.file || !isUuid(params.file)) throw notFound();
  const { data: file, error } = await supabase
    .from('attachments')
    .select('path, name')
    .eq('id', params.file)
    .eq('workspace_id', member.workspace.id)
    .maybeSingle();
  if (error) throw dataErrorResponse(error);
  if (!file) throw notFound();
  const signed = await supabase.storage.from('attachments').createSignedUrl(file.path, DOWNLOAD_SECONDS);
  if (signed.error) throw dataErrorResponse(signed.error);
  // The download name goes on here, encoded once: storage-js's own `download` option runs the
  // encoded query through encodeURI again, so `report (v=2).pdf` would arrive as `report %28v%3D2%29.pdf`.
  const url = `${signed.data.signedUrl}&download=${encodeURIComponent(file.name)}`;
  return redirectWithSession(url, request, context, {
    headers: { 'Cache-Control': 'no-store' },
  });
}
