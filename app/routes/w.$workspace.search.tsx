import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { Marked } from '~/components/marked.tsx';
import { searchTasks } from '~/utils/search.server.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { member, supabase } = await signedIn(request, context, { workspace: params.workspace });
  const q = new URL(request.url).searchParams.get('q') ?? '';
  return json(await searchTasks(supabase, member.workspace.slug, q, 50));
}

const WHERE: Record<string, string> = {
  description: 'in the description',
  comment: 'in a comment',
};

export default function Search() {
  const { q, results, notes, problem } = useLoaderData<typeof loader>();
  const searched = q.trim() !== '' && problem === null;
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
          aria-describedby="search-help"
          className="block w-full rounded-md border border-slate-300 px-3 py-2"
        />
        <button
          type="submit"
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-700"
        >
          Search
        </button>
      </Form>
      <p id="search-help" className="mt-2 text-xs text-slate-600">
        Words match the beginning of words in titles, descriptions and comments. A key such as WEB-12 finds
        that task. Filters: assignee:me, assignee:name, status:name, is:open, is:done, label:name,
        project:KEY; put a value of several words in quotes.
      </p>
      {problem ? (
        <p role="alert" className="mt-4 text-sm text-red-700">
          {problem}
        </p>
      ) : null}
      {notes.length > 0 ? (
        <ul className="mt-3 list-disc pl-5 text-sm text-amber-800">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
      {searched ? (
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
              <span className="text-slate-600">{r.ref}</span> <Marked pieces={r.title} />
            </Link>
            <p className="mt-0.5 text-xs text-slate-600">
              {r.project} · {r.status}
              {WHERE[r.matched] ? ` · ${WHERE[r.matched]}` : null}
            </p>
            {r.snippet ? (
              <p className="mt-1 text-sm text-slate-700">
                <Marked pieces={r.snippet} />
              </p>
            ) : null}
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
