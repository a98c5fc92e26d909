import type { MetaFunction } from '@remix-run/node';
import { useRouteLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import type { loader as accountLoader } from './account.tsx';

export default function Profile() {
  const account = useRouteLoaderData<typeof accountLoader>('routes/account');
  return (
    <section aria-labelledby="profile-title">
      <h1 id="profile-title" className="text-xl font-semibold">
        Your account
      </h1>
      <p className="mt-2 text-slate-600">Signed in as {account?.email}.</p>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: 'Your account · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
