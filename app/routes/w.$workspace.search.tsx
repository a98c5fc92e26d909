import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { dataErrorResponse } from '~/utils/data-errors.server.ts';
import { taskPath, taskRef } from '~/utils/projects.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { member, supabase } = await signedIn(request, context, { workspace: params.workspace });
  const { workspace, projects } = member;
  const q = (new URL(request.url).searchParams.get('q') ?? '').trim().slice(0, 200);
  if (q === '') return json({ q, results: [] });
  const { data, error } = await supabase.rpc('search_tasks', { workspace_id: workspace.id, query: q });
  if (error) throw dataErrorResponse(error);
  // The projects' keys came with the membership: the results need no second request for them.
  const keys = new Map(projects.map((p) => [p.id, p.key]));
  return json({
    q,
    results: data.flatMap((t) => {
      const key = keys.get(t.project_id);
      if (!key) return [];
      return [
        {
          id: t.id,
          ref: taskRef(key, t.number),
          href: taskPath(workspace.slug, key, t.number),
          title: t.title,
          excerpt: t.description.slice(0, 160),
        },
      ];
    }),
  });
}

export default function Search() {
  const { q, results } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-2xl">
      <h1 className="text-xl font-semibold">Search</h1>
      <Form method="get" role="search" className="mt-4 flex gap-2">
        <label htmlFor="q" className="sr-only">
          Search tasks
        </label>
        <input
          id="q"
          name="q"
          type="search"
          defaultValue={q}
          className="block w-full rounded-md border border-slate-300 px-3 py-2"
        />
        <button
          type="submit"
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-700"
        >
          Search
        </button>
      </Form>
      {q !== '' ? (
        <p className="mt-4 text-sm text-slate-600" aria-live="polite">
          {results.length === 0
            ? `No tasks match “${q}”.`
            : `${results.length} ${results.length === 1 ? 'task matches' : 'tasks match'} “${q}”.`}
        </p>
      ) : null}
      <ol className="mt-3 space-y-2">
        {results.map((r) => (
          <li key={r.id} className="rounded-md border border-slate-200 bg-white p-3">
            <Link to={r.href} className="font-medium hover:underline">
              <span className="text-slate-500">{r.ref}</span> {r.title}
            </Link>
            {r.excerpt ? <p className="mt-1 text-sm text-slate-600">{r.excerpt}</p> : null}
          </li>
        ))}
      </ol>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: 'Search · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
