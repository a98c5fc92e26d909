// The question "Delete …?" as a page of its own, for a browser without JavaScript: the task panel's
// delete controls link here (`…/t/:number/delete`, `?comment=<id>` or `?file=<id>`), and its form
// posts the delete to the panel, as the dialog does with JavaScript (components/confirm-delete.tsx).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { ConfirmDeleteForm, deletionTexts } from '~/components/confirm-delete.tsx';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { askedDeletion } from './deletion.server.ts';

export async function loader(args: LoaderFunctionArgs) {
  return json(await askedDeletion(args));
}

export default function ConfirmDeletePage() {
  const { what, here } = useLoaderData<typeof loader>();
  return (
    <aside
      aria-labelledby="confirm-delete-title"
      className="fixed inset-y-0 right-0 z-10 w-full overflow-y-auto border-l border-slate-200 bg-white p-5 shadow-xl sm:max-w-lg"
    >
      <ConfirmDeleteForm
        what={what}
        action={here}
        titleId="confirm-delete-title"
        cancel={
          <Link to={here} className="rounded-md px-3 py-1.5 text-sm font-medium hover:bg-slate-100">
            Cancel
          </Link>
        }
      />
    </aside>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${deletionTexts(data.what).title} · Crewboard` : 'Crewboard' },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
