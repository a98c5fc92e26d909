import { Link, type useLoaderData } from '@remix-run/react';
import type { ReactNode } from 'react';
import { RelativeTime, type Clock } from '~/components/time.tsx';
import { taskPath } from '~/utils/projects.ts';
import { describeChange, type Part } from './history-text.ts';
import type { loader } from './route.tsx';

/** The timeline as the loader sends it (history.server.ts). */
export type TimelineEntries = ReturnType<typeof useLoaderData<typeof loader>>['timeline'];
export type TimelineComment = Extract<TimelineEntries[number], { type: 'comment' }>['comment'];

/**
 * The task's comments and changes as one list by time. A change reads as a line ("Ada moved the task
 * from To do to Done · 3 minutes ago"); a comment is drawn by `comment`, which gets its time to show.
 */
export function Timeline({
  entries,
  clock,
  workspaceSlug,
  comment,
}: {
  entries: TimelineEntries;
  clock: Clock;
  workspaceSlug: string;
  comment: (c: TimelineComment, time: ReactNode) => ReactNode;
}) {
  return (
    <ol className="mt-3 space-y-3">
      {entries.map((e) =>
        e.type === 'comment' ? (
          <li key={e.key} className="rounded-md bg-slate-50 p-3 text-sm">
            {comment(e.comment, <RelativeTime date={e.at} clock={clock} className="text-slate-500" />)}
          </li>
        ) : (
          <li key={e.key} className="px-3 text-sm text-slate-600" data-change={e.kind}>
            <span className="font-medium text-slate-900">{e.actor ?? 'Someone'}</span>{' '}
            <Sentence parts={describeChange(e.kind, e.data)} workspaceSlug={workspaceSlug} />
            <span aria-hidden="true"> · </span>
            <RelativeTime date={e.at} clock={clock} className="text-slate-500" />
          </li>
        ),
      )}
    </ol>
  );
}

/** A task named by its key (`WEB-12`): its project's key and its number. */
const REF = /^([A-Za-z][A-Za-z0-9]*)-(\d+)$/;

function Sentence({ parts, workspaceSlug }: { parts: Part[]; workspaceSlug: string }) {
  return parts.map((part, i) => {
    if (typeof part === 'string') return part;
    if ('value' in part)
      return (
        <strong key={i} className="font-medium text-slate-900">
          {part.value}
        </strong>
      );
    const { ref, title } = part.task;
    const [, key, number] = REF.exec(ref) ?? [];
    const name = title ? `${ref} ${title}` : ref;
    return key && number ? (
      <Link
        key={i}
        to={taskPath(workspaceSlug, key, Number(number))}
        className="font-medium text-slate-900 underline"
      >
        {name}
      </Link>
    ) : (
      <strong key={i} className="font-medium text-slate-900">
        {name}
      </strong>
    );
  });
}
