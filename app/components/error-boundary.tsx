import { isRouteErrorResponse, Link, useRouteError } from '@remix-run/react';

const MESSAGES: Record<number, { title: string; body: string }> = {
  400: {
    title: 'Something was wrong with that request',
    body: "We couldn't read what was sent. Reload the page and try again.",
  },
  413: { title: 'Too large', body: 'What was sent is larger than this page accepts. Nothing was saved.' },
  415: { title: 'Not a form', body: 'This address takes web forms only. Reload the page and try again.' },
  429: { title: 'Slow down', body: 'Too many attempts. Wait a minute, then try again.' },
  403: { title: 'No access', body: "You don't have access to this." },
  404: { title: 'Not found', body: "We couldn't find that page." },
  503: {
    title: 'Unavailable',
    body: "We can't reach the server right now. Nothing was saved; try again in a moment.",
  },
};

/** The one error view every route's ErrorBoundary delegates to: a clear message, never a stack trace. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = MESSAGES[status] ?? {
    title: 'Something went wrong',
    body: 'An unexpected error happened on our side. Nothing was saved; try again in a moment.',
  };
  return (
    <section className="mx-auto max-w-md px-4 py-16 text-center" aria-labelledby="error-title">
      <p className="text-sm font-semibold text-indigo-600">{status}</p>
      <h1 id="error-title" className="mt-2 text-2xl font-semibold">
        {message.title}
      </h1>
      <p className="mt-3 text-slate-600">{message.body}</p>
      <Link
        to="/"
        className="mt-6 inline-block rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700"
      >
        Go home
      </Link>
    </section>
  );
}
