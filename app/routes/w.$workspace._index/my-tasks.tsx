import { Link } from '@remix-run/react';
import type { StatusCategory } from '~/utils/board.ts';
import { dueLabel } from '~/utils/format.ts';
import { taskRef } from '~/utils/projects.ts';
import { taskHref } from './links.ts';

export interface MyTask {
  id: string;
  project_id: string;
  number: number;
  title: string;
  /** Its status's name, and the status's category (always an open one here). */
  status: string;
  category: StatusCategory;
  priority: string;
  due_date: string | null;
}

const STATUS_DOTS: Record<StatusCategory, string> = {
  backlog: 'border-slate-400 border-dashed',
  unstarted: 'border-sky-500',
  started: 'border-amber-500 bg-amber-500/40',
  completed: 'border-emerald-500 bg-emerald-500',
  canceled: 'border-slate-500 bg-slate-500',
};

/** My open tasks in this workspace's projects, soonest due first. */
export function MyTasks({
  tasks,
  total,
  all,
  limit,
  projects,
  slug,
  today,
}: {
  tasks: MyTask[];
  total: number;
  all: boolean;
  limit: number;
  projects: Array<{ id: string; key: string; name: string }>;
  slug: string;
  today: string;
}) {
  const projectsById = new Map(projects.map((p) => [p.id, p]));
  return (
    <section aria-labelledby="my-tasks-title">
      <div className="flex items-baseline justify-between gap-3">
        <h2 id="my-tasks-title" className="text-sm font-semibold text-slate-900">
          My tasks{' '}
          {total > 0 ? <span className="ml-1 font-normal tabular-nums text-slate-500">{total}</span> : null}
        </h2>
        {total > limit ? (
          all ? (
            <Link to="." className="text-sm text-indigo-700 hover:underline">
              Show fewer
            </Link>
          ) : (
            <Link to="?mine=all" className="text-sm text-indigo-700 hover:underline">
              Show all {total}
            </Link>
          )
        ) : null}
      </div>
      {tasks.length === 0 ? (
        <div className="mt-3 rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center">
          <p className="text-sm font-medium text-slate-700">Nothing on your plate</p>
          <p className="mt-1 text-sm text-slate-500">
            Open tasks assigned to you, in any project here, show up in this list.
          </p>
        </div>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
          {tasks.flatMap((t) => {
            const project = projectsById.get(t.project_id);
            if (!project) return [];
            const due = t.due_date ? dueLabel(t.due_date, today) : null;
            return (
              <li key={t.id} className="relative flex items-center gap-3 px-4 py-2.5 hover:bg-slate-50">
                <span
                  className={`h-3 w-3 shrink-0 rounded-full border-2 ${STATUS_DOTS[t.category]}`}
                  role="img"
                  aria-label={t.status}
                />
                <span className="min-w-0 flex-1">
                  <Link
                    to={taskHref(slug, project.key, t.number)}
                    className="block truncate text-sm text-slate-900 after:absolute after:inset-0 focus-visible:outline-none focus-visible:after:ring-2 focus-visible:after:ring-inset focus-visible:after:ring-indigo-600"
                  >
                    {t.title}
                  </Link>
                  <span className="block truncate text-xs text-slate-500">
                    <span className="tabular-nums">{taskRef(project.key, t.number)}</span> · {project.name}
                  </span>
                </span>
                {due && t.due_date ? (
                  <time
                    dateTime={t.due_date}
                    className={`shrink-0 text-xs tabular-nums ${due.overdue ? 'font-medium text-red-700' : 'text-slate-500'}`}
                  >
                    {due.text}
                  </time>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
