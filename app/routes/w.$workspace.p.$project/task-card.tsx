import { useFetcher } from '@remix-run/react';
import type { KeyboardEvent } from 'react';
import { FormMessage } from '~/components/forms.tsx';
import { moveKey, type BoardTask, type MoveReply } from './use-moves.ts';

/**
 * Why the server refused a task's last move (the board has already rolled it back). It lives outside
 * the columns: a card changes column, and so element, while its move is saved; this does not.
 */ export function MoveRefused({ task }: { task: BoardTask }) {
  const fetcher = useFetcher<MoveReply>({ key: moveKey(task.id) });
  const refused = fetcher.state === 'idle' ? fetcher.data?.moveError : undefined;
  if (!refused) return null;
  return (
    <FormMessage>
      Couldn't move #{task.number} {task.title}: {refused}
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
}: {
  task: BoardTask;
  canEdit: boolean;
  interactive: boolean;
  dragging: boolean;
  lineAbove: boolean;
  onDragStart: () => void;
  onDragEnd: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
  taskHref: string;
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
      className={[
        'rounded-md border border-slate-200 bg-white p-3 shadow-sm',
        dragging ? 'opacity-50' : '',
        lineAbove ? 'shadow-[0_-4px_0_0_theme(colors.indigo.500)]' : '',
        draggable ? 'cursor-grab' : '',
      ]
        .filter(Boolean)
        .join(' ')}
    >
      <div className="flex items-start gap-2">
        {draggable ? (
          <button
            type="button"
            id={`handle-${task.id}`}
            aria-label={`Reorder #${task.number}`}
            aria-describedby="reorder-help"
            onKeyDown={onKeyDown}
            className="-ml-1 cursor-grab rounded px-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
          >
            ⠿
          </button>
        ) : null}
        {/* A plain anchor: the board opens it without a page load (onBoardClick). */}
        <a href={taskHref} data-panel-link className="font-medium hover:underline">
          <span className="text-slate-500">{`#${task.number}`}</span> {task.title}
        </a>
      </div>
      {/* One string: one text node, where three would be split by markers in the page. */}
      <p className="mt-1 text-xs text-slate-500">
        {[
          task.assignee?.display_name ?? 'Unassigned',
          task.priority !== 'none' ? task.priority : null,
          task.due_date ? `due ${task.due_date}` : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
    </li>
  );
}
