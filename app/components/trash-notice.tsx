import { Form } from '@remix-run/react';
import { useEffect, useState } from 'react';

/** What the board shows after a delete (app/utils/trash.server.ts reads it from its cookie). */
export interface TrashNotice {
  /** Tells one notice from the next about the same task. */
  id: string;
  taskId: string;
  /** The task's name: `WEB-3`. */
  ref: string;
}

/** How long the notice stays, with JavaScript; without it, until the next page. */
const SHOWN_MS = 10_000;

/**
 * "Task WEB-3 moved to the trash", with Undo: a form that restores it (the trash page's action), so
 * it works without JavaScript. The board's data is loaded again on every live change, so the notice
 * is kept here once seen, until its time is up.
 */
export function TrashedNotice({
  notice,
  workspaceSlug,
}: {
  notice: TrashNotice | null;
  workspaceSlug: string;
}) {
  const [shown, setShown] = useState(notice);
  useEffect(() => {
    if (notice) setShown(notice);
  }, [notice]);
  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => setShown(null), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [shown]);
  if (!shown) return null;
  return (
    <div key={shown.id} role="status" className="toast">
      Task {shown.ref} moved to the trash.
      {/* Undone, the notice has said its piece (a refusal shows on the trash page instead). */}
      <Form method="post" action={`/w/${workspaceSlug}/trash`} onSubmit={() => setShown(null)}>
        <input type="hidden" name="taskId" value={shown.taskId} />
        <input type="hidden" name="back" value="task" />
        <button
          type="submit"
          name="intent"
          value="restore"
          className="rounded px-2 py-0.5 font-semibold text-indigo-200 underline hover:text-white"
        >
          Undo
        </button>
      </Form>
    </div>
  );
}
