import { Link, useParams } from '@remix-run/react';
import type { LiveState } from '~/components/live.tsx';
import type { Viewer } from '~/components/live-board.ts';
import { ProjectHeading } from '~/components/view-switch.tsx';
import { projectPath } from '~/utils/projects.ts';

/** The board's title line: the project, its export and settings, the shortcuts, and who else is here. */
export function BoardHeader({
  project,
  canManage,
  live,
  others,
  saving,
  onShowShortcuts,
  title,
}: {
  project: { name: string; key: string; archived_at: string | null };
  /** An admin: the project's settings (its statuses, name, archiving) are theirs to change. */
  canManage: boolean;
  live: LiveState;
  others: Viewer[];
  saving: boolean;
  onShowShortcuts: () => void;
  /** The page's heading when it is not the project's name (a saved view's). */
  title?: string;
}) {
  // From the project's address, not this route's: a saved view's page draws this header too.
  const base = projectPath(useParams().workspace ?? '', project.key);
  return (
    <header className="flex flex-wrap items-baseline gap-3" data-live={live}>
      <ProjectHeading project={project} current="board" title={title} />
      {/* A document request (the export route answers a file), so it works without JavaScript. */}
      <Link
        to={`${base}/export.csv`}
        reloadDocument
        className="text-sm text-slate-600 underline hover:text-slate-900"
      >
        Export CSV
      </Link>
      {canManage ? (
        <Link to={`${base}/settings`} className="text-sm text-slate-600 underline hover:text-slate-900">
          Project settings
        </Link>
      ) : null}
      <button
        type="button"
        onClick={onShowShortcuts}
        // Shortcuts are for keyboards: not offered on a phone's width.
        className="js-only hidden text-sm text-slate-600 underline hover:text-slate-900 md:inline"
      >
        Keyboard shortcuts <kbd className="font-mono text-xs">?</kbd>
      </button>
      {saving ? <span className="text-xs text-slate-500">Saving…</span> : null}
      {live === 'interrupted' ? (
        <span aria-live="polite" className="text-xs text-amber-700">
          Reconnecting… changes by others will show when the connection is back.
        </span>
      ) : null}
      {others.length > 0 ? (
        <p aria-label="Also on this board" className="ml-auto flex items-center gap-1 text-xs text-slate-600">
          <span className="sr-only sm:not-sr-only">Also here:</span>
          {others.map((o) => (
            <span key={o.id} className="rounded-full bg-indigo-100 px-2 py-0.5 font-medium text-indigo-900">
              {o.name}
            </span>
          ))}
        </p>
      ) : null}
    </header>
  );
}
