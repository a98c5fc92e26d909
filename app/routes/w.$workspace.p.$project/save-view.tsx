import { useFetcher, useParams, useSearchParams } from '@remix-run/react';
import type { SubmissionResult } from '~/components/schema-form.ts';
import { FormMessage } from '~/components/forms.tsx';
import { projectPath } from '~/utils/projects.ts';
import { readViewQuery, viewParams, type ViewKind } from '~/utils/saved-views.ts';

/** What the save action answers when it refuses (a saved view is answered with a redirect to it). */
export type SaveViewReply = { result: SubmissionResult<string[]> } | undefined;

/**
 * "Save view": a disclosure on the board (and the list) that names the filters and sort of the page's
 * address as a view, for oneself or, for admins, shared with the workspace. A plain form posted to
 * the project's /views/new, so it works without JavaScript (refusals then show on that page); with
 * JavaScript it posts in place and opens the new view.
 */
export function SaveView({ canShare, kind = 'board' }: { canShare: boolean; kind?: ViewKind }) {
  const fetcher = useFetcher<SaveViewReply>();
  const reply = fetcher.data?.result;
  return (
    <details className="relative text-sm" open={reply ? true : undefined}>
      <summary className="filter-control inline-block cursor-pointer">Save view</summary>
      <div className="absolute z-20 mt-1 w-72 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white p-3 shadow-lg">
        <SaveViewForm
          Form={fetcher.Form}
          canShare={canShare}
          kind={kind}
          reply={reply}
          busy={fetcher.state !== 'idle'}
        />
      </div>
    </details>
  );
}

/** The form itself: on the board's disclosure, and alone on /views/new. */
export function SaveViewForm({
  Form,
  canShare,
  kind,
  reply,
  busy = false,
}: {
  Form: ReturnType<typeof useFetcher>['Form'] | 'form';
  canShare: boolean;
  kind: ViewKind;
  reply: SubmissionResult<string[]> | undefined;
  busy?: boolean;
}) {
  const { workspace = '', project = '' } = useParams();
  const [searchParams] = useSearchParams();
  const nameErrors = reply?.error?.name ?? undefined;
  const formErrors = reply?.error?.[''] ?? undefined;
  const typed = reply?.initialValue?.name;
  const query = viewParams(readViewQuery(searchParams));
  // The parameters ride in the address too: a refusal shown on /views/new keeps them for the next try.
  const target = new URLSearchParams(query);
  if (kind === 'list') target.set('kind', kind);
  return (
    <Form
      method="post"
      action={`${projectPath(workspace, project)}/views/new?${target}`}
      className="space-y-2"
    >
      {formErrors ? <FormMessage>{formErrors.join(' ')}</FormMessage> : null}
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="query" value={query.toString()} />
      <div>
        <label htmlFor="save-view-name" className="label">
          View name
        </label>
        <input
          id="save-view-name"
          name="name"
          required
          maxLength={80}
          defaultValue={typeof typed === 'string' ? typed : ''}
          aria-invalid={nameErrors ? true : undefined}
          aria-describedby={nameErrors ? 'save-view-name-error' : undefined}
          className="input"
        />
        {nameErrors ? (
          <p id="save-view-name-error" role="alert" className="mt-1 text-sm text-red-700">
            {nameErrors.join(' ')}
          </p>
        ) : null}
      </div>
      {canShare ? (
        <label className="flex items-center gap-2 text-slate-700">
          <input type="checkbox" name="shared" defaultChecked={reply?.initialValue?.shared === 'on'} />
          Share with the workspace
        </label>
      ) : null}
      <button type="submit" disabled={busy} className="button-primary">
        {busy ? 'Saving…' : 'Save view'}
      </button>
    </Form>
  );
}
