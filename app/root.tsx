import type { LinksFunction, LoaderFunctionArgs } from '@remix-run/node';
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from '@remix-run/react';
import { useEffect, type ReactNode } from 'react';
import { GeneralErrorBoundary } from './components/error-boundary.tsx';
import { SessionSync } from './components/session-sync.tsx';
import { rootData } from './utils/root-data.server.ts';
import { useNonce } from './utils/nonce.tsx';
import stylesheet from './tailwind.css';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  // root imports nothing from @remix-run/node at run time (see sign-in-page.server.ts): rootData
  // builds the response.
  return rootData(request, context);
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>('root');
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-full">
        {children}
        {data?.flash ? (
          // A new flash is a new element (key), so one dismissed earlier does not hide it. The close
          // button is shown by CSS once React has hydrated (it needs JavaScript); a reload clears the
          // flash anyway.
          <div key={data.flash.id} role="status" className="toast">
            {data.flash.message}
            <button
              type="button"
              aria-label="Dismiss"
              onClick={(event) => {
                event.currentTarget.parentElement?.setAttribute('hidden', '');
              }}
            >
              ×
            </button>
          </div>
        ) : null}
        {data ? (
          <SessionSync url={data.supabase.url} anonKey={data.supabase.anonKey} userId={data.userId} />
        ) : null}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  // Marks the document once React has taken it over. End-to-end tests wait for it before they type:
  // hydration puts back the server's value of a field filled in before it.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
