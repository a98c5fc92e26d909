import { useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate } from '@remix-run/react';
import { FileField } from './forms.tsx';

/** The route that takes an upload, as Remix names it for a data request (`?_data=`). */
export const IMPORT_ROUTE_ID = 'routes/w.$workspace.p.$project_.settings_.import';

/**
 * The upload of an import file. Without JavaScript a plain multipart form: the next page is the
 * preview, or this form again with the reason. With it, the same post goes through XMLHttpRequest,
 * whose upload events give a progress bar (fetch has none for a request body), as a Remix data
 * request so the answer is the action's JSON or its redirect.
 */
export function ImportForm({ action, error }: { action: string; error: string | null }) {
  const navigate = useNavigate();
  const [sent, setSent] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  function upload(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const request = new XMLHttpRequest();
    request.open('POST', `${action}?_data=${encodeURIComponent(IMPORT_ROUTE_ID)}`);
    request.upload.onprogress = (e) =>
      setSent(e.lengthComputable ? Math.round((100 * e.loaded) / e.total) : 0);
    request.onload = () => {
      const redirect = request.getResponseHeader('X-Remix-Redirect');
      if (redirect) return navigate(redirect);
      setSent(null);
      try {
        const answer: unknown = JSON.parse(request.responseText);
        setFailure(
          answer && typeof answer === 'object' && 'error' in answer && typeof answer.error === 'string'
            ? answer.error
            : 'The upload failed. Try again.',
        );
      } catch {
        setFailure('The upload failed. Try again.');
      }
    };
    request.onerror = () => {
      setSent(null);
      setFailure('The upload was interrupted. Check your connection and try again.');
    };
    setFailure(null);
    setSent(0);
    request.send(new FormData(event.currentTarget));
  }

  return (
    <form method="post" action={action} encType="multipart/form-data" onSubmit={upload} className="space-y-3">
      <FileField
        id="import-file"
        name="file"
        label="File"
        hint="A CSV file (a project’s export, or any sheet with a “title” column) or a Trello board’s JSON export; at most 10 MB and 5,000 tasks. Nothing is imported before you see a preview."
        accept=".csv,.json,text/csv,application/json"
        error={failure ?? error}
      />
      {sent !== null ? (
        <div>
          <label htmlFor="import-progress" className="text-sm text-slate-700">
            Uploading…
          </label>
          <progress id="import-progress" max={100} value={sent} className="block w-full">
            {sent}%
          </progress>
        </div>
      ) : null}
      <button type="submit" className="button-primary" disabled={sent !== null}>
        Upload and preview
      </button>
    </form>
  );
}
