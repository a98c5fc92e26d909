import { Avatar } from '~/components/avatar.tsx';
import { dueLabel } from '~/utils/format.ts';
import { canBeOverdue, type StatusCategory } from '~/utils/board.ts';

/** The task at a glance, as its card says it: who has it, its priority, when it is due. */
export function TaskFacts({
  task,
  assignee,
  today,
  category,
}: {
  task: { priority: string; due_date: string | null };
  /** The category of the task's status: a completed or canceled task is never overdue. */
  category: StatusCategory | undefined;
  assignee: { name: string; avatar: string | null } | undefined;
  today: string;
}) {
  const due = task.due_date ? dueLabel(task.due_date, today, !category || canBeOverdue(category)) : null;
  return (
    <p className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-600">
      <span className="inline-flex items-center gap-2">
        {assignee ? <Avatar name={assignee.name} url={assignee.avatar} decorative /> : null}
        {assignee ? assignee.name : 'Unassigned'}
      </span>
      {task.priority !== 'none' ? (
        <span className="inline-flex items-center gap-1.5">
          <span className="priority" data-priority={task.priority} aria-hidden="true" />
          Priority: {task.priority}
        </span>
      ) : null}
      {due ? (
        <time
          dateTime={task.due_date ?? undefined}
          className={due.overdue ? 'font-medium text-red-700' : undefined}
        >
          {due.text}
        </time>
      ) : null}
    </p>
  );
}
