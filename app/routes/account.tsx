import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, NavLink, Outlet, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { signedIn } from '~/utils/session/signed-in.server.ts';

// The account layout: who is signed in, the account pages, and signing out.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await signedIn(request, context);
  return json({ email: user.email });
}

export default function AccountLayout() {
  const { email } = useLoaderData<typeof loader>();
  const tab = 'rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 aria-[current=page]:bg-slate-200';
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <a href="/" className="text-sm font-semibold uppercase tracking-wide text-indigo-600">
          Crewboard
        </a>
        <div className="flex items-center gap-3 text-sm">
          <span className="text-slate-600">{email}</span>
          <Form method="post" action="/logout">
            <button
              type="submit"
              className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium hover:bg-slate-100"
            >
              Sign out
            </button>
          </Form>
        </div>
      </header>
      <nav className="mt-6 flex gap-2" aria-label="Account">
        <NavLink to="/account" end className={tab}>
          Profile
        </NavLink>
        <NavLink to="/account/security" className={tab}>
          Security
        </NavLink>
        <NavLink to="/account/notifications" className={tab}>
          Notifications
        </NavLink>
      </nav>
      <main className="mt-6">
        <Outlet />
      </main>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: 'Account · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
