import { Form, Link } from '@remix-run/react';
import { FormMessage } from '~/components/forms.tsx';
import { useHydrated } from '~/components/hydrated.ts';
import { LabelChip, LabelChips, type ChipLabel } from '~/components/label-chip.tsx';
import { LabelPicker } from './label-picker.tsx';

/**
 * The task's labels as chips; for those who may change them, the workspace's labels to choose from:
 * without JavaScript a checkbox each and a Save button, with it a picker that saves each change.
 */
export function TaskLabels({
  taskId,
  labels,
  workspaceLabels,
  canEdit,
  labelsPath,
  error,
}: {
  taskId: string;
  labels: ChipLabel[];
  workspaceLabels: ChipLabel[];
  canEdit: boolean;
  /** The workspace's labels page, where admins make them. */
  labelsPath: string;
  /** Why the last change was refused. */
  error: string | null;
}) {
  const hydrated = useHydrated();
  const on = new Set(labels.map((l) => l.id));
  return (
    <section aria-labelledby="labels-title" className="mt-6">
      <div className="flex items-center justify-between gap-2">
        <h2 id="labels-title" className="text-base font-semibold">
          Labels
        </h2>
        {canEdit && hydrated && workspaceLabels.length > 0 ? (
          <LabelPicker taskId={taskId} workspaceLabels={workspaceLabels} on={on} />
        ) : null}
      </div>
      <div className="mt-2">
        {labels.length > 0 ? (
          <LabelChips labels={labels} max={Infinity} />
        ) : (
          <p className="text-sm text-slate-600">No labels.</p>
        )}
      </div>
      {error ? (
        <div className="mt-2">
          <FormMessage>{error}</FormMessage>
        </div>
      ) : null}
      {canEdit && workspaceLabels.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">
          This workspace has no labels yet: admins make them on its{' '}
          <Link to={labelsPath} className="font-medium underline">
            labels page
          </Link>
          .
        </p>
      ) : null}
      {canEdit && !hydrated && workspaceLabels.length > 0 ? (
        <Form method="post" className="mt-3 rounded-md bg-slate-50 p-3">
          <fieldset>
            <legend className="text-sm font-medium">Choose labels</legend>
            <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-2">
              {workspaceLabels.map((label) => (
                <li key={label.id}>
                  <label className="inline-flex items-center gap-2 text-sm">
                    <input type="checkbox" name="label" value={label.id} defaultChecked={on.has(label.id)} />
                    <LabelChip label={label} />
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <button
            type="submit"
            name="intent"
            value="labels"
            className="mt-3 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100"
          >
            Save labels
          </button>
        </Form>
      ) : null}
    </section>
  );
}
