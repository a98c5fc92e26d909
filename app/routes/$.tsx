import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { legacyProjectRedirect, legacyProjectWorkspace } from '~/utils/project.server.ts';
import { notFound } from '~/utils/data-errors.server.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';

// Every URL no other route claims: a real 404 with the app's error page. An address under a project's
// UUID (from before keys) is first sent on to the same address under its key, whatever follows.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const workspace = legacyProjectWorkspace(request);
  if (workspace === null) throw notFound();
  const { member } = await signedIn(request, context, { workspace });
  throw legacyProjectRedirect(request, context, member) ?? notFound();
}

export default function NotFound() {
  return null;
}

export const meta: MetaFunction = () => [{ title: 'Not found · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
