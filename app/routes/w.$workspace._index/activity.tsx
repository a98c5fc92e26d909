import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { Avatar } from '~/components/avatar.tsx';
import { RelativeTime, type Clock } from '~/components/time.tsx';
import { dayHeading } from '~/utils/format.ts';
import { taskRef as taskName } from '~/utils/projects.ts';
import { projectHref, taskHref } from './links.ts';

export interface ActivityEntry {
  id: number;
  kind: string;
  createdAt: string;
  projectId: string | null;
  /** The project's key, while the caller can see the project. */
  projectKey: string | null;
  projectName: string | null;
  actor: { name: string; avatarUrl: string | null } | null;
  /** The task's number and title, for entries about a task. */
  number: number | null;
  title: string | null;
  /** The project's name, for entries about a project. */
  name: string | null;
  /** The status a task was moved to, as it was named then. */
  to: string | null;
  /** Whom a task was assigned to (null: unassigned, or someone no longer here). */
  assignee: string | null;
}

/** Entries of one person doing one thing in one project, in a row: shown as one line. */
type Item = { entry: ActivityEntry; more: ActivityEntry[] };

/** Runs of this many or more like entries fold into one line ("created 25 tasks"). */
const RUN = 3;
const FOLDABLE: Record<string, string> = {
  task_created: 'created',
  task_moved: 'moved',
  comment_added: 'commented on',
  task_deleted: 'deleted',
};

function fold(entries: ActivityEntry[]): Item[] {
  const items: Item[] = [];
  for (const entry of entries) {
    const last = items[items.length - 1];
    if (
      last &&
      entry.kind in FOLDABLE &&
      last.entry.kind === entry.kind &&
      last.entry.projectId === entry.projectId &&
      last.entry.actor?.name === entry.actor?.name
    )
      last.more.push(entry);
    else items.push({ entry, more: [] });
  }
  // Short runs read better spelled out.
  return items.flatMap((item) =>
    item.more.length + 1 >= RUN ? [item] : [item.entry, ...item.more].map((entry) => ({ entry, more: [] })),
  );
}

/** The latest activity, newest first, one group per day in the reader's time zone. */
export function ActivityFeed({
  entries,
  clock,
  slug,
}: {
  entries: ActivityEntry[];
  clock: Clock;
  slug: string;
}) {
  const days: Array<{ heading: string; entries: ActivityEntry[] }> = [];
  for (const entry of entries) {
    const heading = dayHeading(entry.createdAt, clock.now, clock.timeZone);
    const last = days[days.length - 1];
    if (last && last.heading === heading) last.entries.push(entry);
    else days.push({ heading, entries: [entry] });
  }
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title" className="text-sm font-semibold text-slate-900">
        Activity
      </h2>
      {days.length === 0 ? (
        <div className="mt-3 rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center">
          <p className="text-sm font-medium text-slate-700">No activity yet</p>
          <p className="mt-1 text-sm text-slate-500">
            New projects and tasks, moves, assignments and comments will show up here as they happen.
          </p>
        </div>
      ) : (
        <div className="mt-3 space-y-5">
          {days.map((day) => (
            <section key={day.heading} aria-label={day.heading}>
              <h3 className="text-xs font-medium uppercase tracking-wide text-slate-500">{day.heading}</h3>
              <ol className="mt-2 space-y-2.5">
                {fold(day.entries).map(({ entry, more }) => (
                  <li key={entry.id} className="flex items-start gap-2.5">
                    <Avatar
                      name={entry.actor?.name ?? 'Someone'}
                      url={entry.actor?.avatarUrl}
                      size="sm"
                      decorative
                    />
                    <div className="min-w-0 flex-1 text-sm leading-6">
                      <div className="flex items-baseline gap-3">
                        <p className="min-w-0 flex-1 text-slate-600">
                          <span className="font-medium text-slate-900">{entry.actor?.name ?? 'Someone'}</span>{' '}
                          {more.length > 0 ? (
                            <>
                              {FOLDABLE[entry.kind]} {more.length + 1} tasks
                            </>
                          ) : (
                            describe(entry, slug)
                          )}
                          {entry.projectName && entry.projectKey && !isProjectEntry(entry.kind) ? (
                            <span className="text-slate-500">
                              {' in '}
                              <Link
                                to={projectHref(slug, entry.projectKey)}
                                className="underline decoration-slate-300 underline-offset-2 hover:text-slate-700 hover:decoration-slate-500"
                              >
                                {entry.projectName}
                              </Link>
                            </span>
                          ) : null}
                        </p>
                        <RelativeTime
                          date={entry.createdAt}
                          clock={clock}
                          className="shrink-0 text-xs tabular-nums text-slate-500"
                        />
                      </div>
                      {more.length > 0 ? (
                        <details className="group mt-1">
                          <summary className="cursor-pointer text-xs text-slate-500 hover:text-slate-700">
                            Show the {more.length + 1} tasks
                          </summary>
                          <ul className="mt-1 space-y-1 border-l border-slate-200 pl-3">
                            {[entry, ...more].map((e) => (
                              <li key={e.id} className="truncate">
                                {e.kind === 'task_moved' ? describe(e, slug) : taskRef(e, slug)}
                              </li>
                            ))}
                          </ul>
                        </details>
                      ) : null}
                    </div>
                  </li>
                ))}
              </ol>
            </section>
          ))}
        </div>
      )}
    </section>
  );
}

const isProjectEntry = (kind: string) => kind.startsWith('project_');

/** "WEB-12 Fix login", linked to the task while it exists. */
function taskRef(entry: ActivityEntry, slug: string): ReactNode {
  if (entry.number === null) return null;
  const text = (
    <>
      <span className="tabular-nums text-slate-500">
        {entry.projectKey ? taskName(entry.projectKey, entry.number) : `#${entry.number}`}
      </span>{' '}
      {entry.title}
    </>
  );
  return entry.kind !== 'task_deleted' && entry.projectKey ? (
    <Link
      to={taskHref(slug, entry.projectKey, entry.number)}
      className="font-medium text-slate-900 hover:text-indigo-700 hover:underline"
    >
      {text}
    </Link>
  ) : (
    <span className="font-medium text-slate-900">{text}</span>
  );
}

/** What happened, after the actor's name: "moved #12 Fix login to Done". */
function describe(entry: ActivityEntry, slug: string): ReactNode {
  const task = taskRef(entry, slug);
  const project =
    entry.projectKey && entry.name !== null ? (
      <Link to={projectHref(slug, entry.projectKey)} className="font-medium text-slate-900 hover:underline">
        {entry.name}
      </Link>
    ) : (
      <span className="font-medium text-slate-900">{entry.name}</span>
    );
  switch (entry.kind) {
    case 'task_created':
      return <>created {task}</>;
    case 'task_moved':
      return (
        <>
          moved {task} to <span className="font-medium text-slate-900">{entry.to}</span>
        </>
      );
    case 'task_assigned':
      return entry.assignee ? (
        <>
          assigned {task} to <span className="font-medium text-slate-900">{entry.assignee}</span>
        </>
      ) : (
        <>unassigned {task}</>
      );
    case 'task_deleted':
      return <>deleted {task}</>;
    case 'comment_added':
      return <>commented on {task}</>;
    case 'project_created':
      return <>created the project {project}</>;
    case 'project_archived':
      return <>archived {project}</>;
    case 'project_restored':
      return <>restored {project}</>;
    case 'member_joined':
      return <>joined the workspace</>;
    case 'member_left':
      return <>left the workspace</>;
    default:
      return <>{entry.kind}</>;
  }
}
