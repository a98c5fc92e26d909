import { Link, useParams, useSearchParams } from '@remix-run/react';
import { FILTER_PARAMS } from '~/utils/board.ts';
import { viewSearch } from '~/utils/list.ts';
import { projectPath } from '~/utils/projects.ts';

/**
 * "Board | List": the project's two views, each a link that keeps the filters of the address (the
 * list's sort and window, and the board's column windows, stay with their own view).
 */
export function ViewSwitch({ projectKey, current }: { projectKey: string; current: 'board' | 'list' }) {
  const [searchParams] = useSearchParams();
  const { workspace = '' } = useParams();
  const search = viewSearch(searchParams, FILTER_PARAMS);
  const board = projectPath(workspace, projectKey);
  const item = 'rounded px-2 py-0.5';
  return (
    <nav aria-label="View" className="flex rounded-md border border-slate-300 p-0.5 text-sm">
      {(
        [
          ['board', 'Board', `${board}${search}`],
          ['list', 'List', `${board}/list${search}`],
        ] as const
      ).map(([view, name, to]) => (
        <Link
          key={view}
          to={to}
          aria-current={view === current ? 'page' : undefined}
          className={
            view === current
              ? `${item} bg-slate-800 font-medium text-white`
              : `${item} text-slate-700 hover:bg-slate-100`
          }
        >
          {name}
        </Link>
      ))}
    </nav>
  );
}

/**
 * The start of a project view's title line, the board's and the list's alike: the project's name and
 * key, the switch between its views, and whether it is archived.
 */
export function ProjectHeading({
  project,
  current,
  title,
}: {
  project: { name: string; key: string; archived_at: string | null };
  current: 'board' | 'list';
  /** The page's heading when it is not the project's name (a saved view's). */
  title?: string;
}) {
  return (
    <>
      <h1 className="text-xl font-semibold">{title ?? project.name}</h1>
      {title ? <span className="text-sm text-slate-600">{project.name}</span> : null}
      <span className="font-mono text-sm text-slate-500">{project.key}</span>
      <ViewSwitch projectKey={project.key} current={current} />
      {project.archived_at ? (
        <span className="rounded bg-slate-200 px-2 py-0.5 text-xs">Archived: read-only</span>
      ) : null}
    </>
  );
}
