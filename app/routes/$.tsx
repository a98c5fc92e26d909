import type { MetaFunction } from '@remix-run/node';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';

// Every URL no other route claims: a real 404 with the app's error page.
export async function loader() {
  throw new Response('Not found', { status: 404 });
}

export default function NotFound() {
  return null;
}

export const meta: MetaFunction = () => [{ title: 'Not found · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
