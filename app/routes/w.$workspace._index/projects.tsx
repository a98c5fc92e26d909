import { Link } from '@remix-run/react';
import { CATEGORY_LABELS, isOpenCategory, STATUS_CATEGORIES, type StatusCategory } from '~/utils/board.ts';
import { projectHref } from './links.ts';

export interface ProjectSummary {
  id: string;
  key: string;
  name: string;
  archived_at: string | null;
  /** Its tasks by their status's category. */
  counts: Record<StatusCategory, number>;
  overdue: number;
}

/** The bar's colour for each category, left to right in board order. */
const STATUS_COLOURS: Record<StatusCategory, string> = {
  backlog: 'bg-slate-300',
  unstarted: 'bg-sky-500',
  started: 'bg-amber-500',
  completed: 'bg-emerald-500',
  canceled: 'bg-slate-500',
};

/**
 * "4 backlog, 12 to do, 3 in progress, 8 done": what the bar shows, in words. Canceled tasks are
 * named only when there are some.
 */
export function statusSummary(counts: Record<StatusCategory, number>): string {
  const total = STATUS_CATEGORIES.reduce((sum, s) => sum + counts[s], 0);
  if (total === 0) return 'No tasks yet';
  return STATUS_CATEGORIES.filter((s) => s !== 'canceled' || counts[s] > 0)
    .map((s) => `${counts[s]} ${CATEGORY_LABELS[s].toLowerCase()}`)
    .join(', ');
}

export function ProjectList({ projects, slug }: { projects: ProjectSummary[]; slug: string }) {
  const active = projects.filter((p) => !p.archived_at);
  const archived = projects.filter((p) => p.archived_at);
  return (
    <section aria-labelledby="projects-title">
      <div className="flex items-baseline justify-between">
        <h2 id="projects-title" className="text-sm font-semibold text-slate-900">
          Projects
        </h2>
        <Legend />
      </div>
      {active.length > 0 ? (
        <ul className="mt-3 grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {active.map((p) => (
            <li key={p.id}>
              <ProjectCard project={p} slug={slug} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500">
          Every project here is archived.
        </p>
      )}
      {archived.length > 0 ? (
        <p className="mt-3 text-sm text-slate-500">
          Archived:{' '}
          {archived.map((p, i) => (
            <span key={p.id}>
              {i > 0 ? ', ' : null}
              <Link
                to={projectHref(slug, p.key)}
                className="text-slate-600 underline decoration-slate-300 underline-offset-2 hover:decoration-slate-500"
              >
                {p.name}
              </Link>
            </span>
          ))}
        </p>
      ) : null}
    </section>
  );
}

function Legend() {
  return (
    <ul className="hidden items-center gap-3 text-xs text-slate-500 sm:flex" aria-hidden="true">
      {STATUS_CATEGORIES.filter((s) => s !== 'canceled').map((s) => (
        <li key={s} className="flex items-center gap-1.5">
          <span className={`h-2 w-2 rounded-full ${STATUS_COLOURS[s]}`} />
          {CATEGORY_LABELS[s]}
        </li>
      ))}
    </ul>
  );
}

function ProjectCard({ project, slug }: { project: ProjectSummary; slug: string }) {
  const { counts, overdue } = project;
  const total = STATUS_CATEGORIES.reduce((sum, s) => sum + counts[s], 0);
  const open = STATUS_CATEGORIES.filter(isOpenCategory).reduce((sum, s) => sum + counts[s], 0);
  const summary = statusSummary(counts);
  return (
    <Link
      to={projectHref(slug, project.key)}
      className="group block rounded-lg border border-slate-200 bg-white p-4 shadow-sm transition-shadow hover:border-indigo-300 hover:shadow focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
    >
      <div className="flex items-start justify-between gap-3">
        <span className="min-w-0 truncate font-medium text-slate-900 group-hover:text-indigo-700">
          {project.name}
        </span>
        <span className="shrink-0 text-xs tabular-nums text-slate-500">
          {total > 0 ? `${Math.round((counts.completed / total) * 100)}% done` : null}
        </span>
      </div>
      <div
        className="mt-3 flex h-2 overflow-hidden rounded-full bg-slate-100"
        role="img"
        aria-label={summary}
      >
        {STATUS_CATEGORIES.filter((s) => counts[s] > 0).map((s) => (
          <span
            key={s}
            className={`${STATUS_COLOURS[s]} h-full border-r border-white last:border-r-0`}
            style={{ width: `${(counts[s] / total) * 100}%` }}
          />
        ))}
      </div>
      <p className="mt-3 flex items-center gap-3 text-sm">
        <span className="text-slate-700">
          <span className="font-semibold tabular-nums">{open}</span> open
        </span>
        {overdue > 0 ? (
          <span className="inline-flex items-center gap-1 rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-700">
            <span className="tabular-nums">{overdue}</span> overdue
          </span>
        ) : (
          <span className="text-xs text-slate-500">{total > 0 ? 'nothing overdue' : 'no tasks yet'}</span>
        )}
      </p>
    </Link>
  );
}
