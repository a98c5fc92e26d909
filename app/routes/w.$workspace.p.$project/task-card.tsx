import { useFetcher } from '@remix-run/react';
import type { KeyboardEvent, ReactNode } from 'react';
import { Avatar } from '~/components/avatar.tsx';
import { FormMessage } from '~/components/forms.tsx';
import { LabelChips } from '~/components/label-chip.tsx';
import { dueLabel } from '~/utils/format.ts';
import { taskRef } from '~/utils/projects.ts';
import { CardStructure } from './card-structure.tsx';
import { ChecklistProgress } from './checklist-progress.tsx';
import { moveKey, type BoardTask, type MoveReply } from './use-moves.ts';

/**
 * Why the server refused a task's last move (the board has already rolled it back). It lives outside
 * the columns: a card changes column, and so element, while its move is saved; this does not.
 */ export function MoveRefused({ task, projectKey }: { task: BoardTask; projectKey: string }) {
  const fetcher = useFetcher<MoveReply>({ key: moveKey(task.id) });
  const refused = fetcher.state === 'idle' ? fetcher.data?.moveError : undefined;
  if (!refused) return null;
  return (
    <FormMessage>
      Couldn't move {taskRef(projectKey, task.number)} {task.title}: {refused}
    </FormMessage>
  );
}

export function TaskCard({
  task,
  canEdit,
  interactive,
  dragging,
  lineAbove,
  onDragStart,
  onDragEnd,
  onKeyDown,
  taskHref,
  assignee,
  today,
  mayBeOverdue,
  projectKey,
  menu,
  discover = false,
}: {
  task: BoardTask;
  /** The assignee's name and picture (from the board's people). */
  assignee: { name: string; avatar: string | null } | undefined;
  /** The reader's date, for "in 3 days" and "2 days overdue". */
  today: string;
  /** Its column's category leaves it open: a completed or canceled task is never overdue. */
  mayBeOverdue: boolean;
  canEdit: boolean;
  interactive: boolean;
  dragging: boolean;
  lineAbove: boolean;
  onDragStart: () => void;
  onDragEnd: () => void;
  /** The card's keys (moves, open): pressed on its handle or its link. */
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  taskHref: string;
  projectKey: string;
  /** The card's "⋯" menu, drawn once the board is interactive. */
  menu?: ReactNode;
  /**
   * Marks the link for Remix's route discovery (lazy route discovery finds routes through the
   * `data-discover` links on the page, as `<Link>` renders them). One card's is enough: every task
   * panel is the same route, and without it opening a card could be matched to the catch-all route.
   */
  discover?: boolean;
}) {
  const draggable = interactive && canEdit;
  return (
    <li
      data-task-id={task.id}
      draggable={draggable || undefined}
      onDragStart={
        draggable
          ? (event) => {
              event.dataTransfer.effectAllowed = 'move';
              event.dataTransfer.setData('text/plain', task.id);
              onDragStart();
            }
          : undefined
      }
      onDragEnd={draggable ? onDragEnd : undefined}
      onKeyDown={draggable ? onKeyDown : undefined}
      className={[
        'card',
        dragging ? 'opacity-50' : '',
        lineAbove ? 'shadow-[0_-4px_0_0_theme(colors.indigo.500)]' : '',
        draggable ? 'cursor-grab' : '',
      ]
        .filter(Boolean)
        .join(' ')}
    >
      {draggable ? (
        <button
          type="button"
          id={`handle-${task.id}`}
          data-card-handle
          aria-label={`Reorder ${taskRef(projectKey, task.number)}`}
          aria-describedby="reorder-help"
          className="-ml-1 cursor-grab rounded px-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
        >
          ⠿
        </button>
      ) : null}
      {/* A plain anchor: the board opens it without a page load (onBoardClick, which knows it as the
          card's link). One text node after the reference, so the server writes no separator. */}
      <a href={taskHref} data-discover={discover ? 'true' : undefined}>
        <span>{taskRef(projectKey, task.number)}</span>
        {` ${task.title}`}
      </a>
      {draggable ? menu : null}
      {task.labels ? <LabelChips labels={task.labels} /> : null}
      <CardStructure task={task} />
      <CardFacts task={task} assignee={assignee} today={today} mayBeOverdue={mayBeOverdue} />
    </li>
  );
}

/**
 * What a card says at a glance: priority, due date, comments, files, and who has it. Icons and bars
 * are CSS (app/tailwind.css, `.card-facts`): one element and at most one text node each, since a
 * board draws hundreds of these. Nothing is drawn for what a task does not have.
 */
export function CardFacts({
  task,
  assignee,
  today,
  mayBeOverdue,
}: {
  task: Pick<BoardTask, 'priority' | 'due' | 'comments' | 'attachments' | 'checklist'>;
  assignee: { name: string; avatar: string | null } | undefined;
  today: string;
  mayBeOverdue: boolean;
}) {
  // A completed or canceled task's date is history, not a warning.
  const due = task.due && mayBeOverdue ? dueLabel(task.due, today) : null;
  if (task.priority === 'none' && !due && !task.comments && !task.attachments && !task.checklist && !assignee)
    return null;
  return (
    <div className="card-facts">
      {task.priority !== 'none' ? (
        <span role="img" data-priority={task.priority} aria-label={`Priority: ${task.priority}`} />
      ) : null}
      {due ? (
        <time dateTime={task.due ?? undefined} data-overdue={due.overdue || undefined}>
          {due.text}
        </time>
      ) : null}
      {task.comments ? (
        <span role="img" className="count comments" aria-label={plural(task.comments, 'comment')}>
          {task.comments}
        </span>
      ) : null}
      {task.checklist ? <ChecklistProgress {...task.checklist} /> : null}
      {task.attachments ? (
        <span role="img" className="count files" aria-label={plural(task.attachments, 'attachment')}>
          {task.attachments}
        </span>
      ) : null}
      {assignee ? (
        <Avatar
          name={assignee.name}
          url={assignee.avatar}
          title={assignee.avatar ? `Assigned to ${assignee.name}` : undefined}
          className="assignee"
        />
      ) : null}
    </div>
  );
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
