import type { BoardTask } from './use-moves.ts';

/**
 * A card's place among other tasks: "Blocked" when a task that is neither completed nor canceled
 * blocks it, and its sub-tasks' progress ("3/5": done of all but the canceled ones). Nothing is drawn
 * for a task with neither. One element and one text node each, as the card's other facts.
 */
export function CardStructure({ task }: { task: Pick<BoardTask, 'subtasks' | 'blocked'> }) {
  if (!task.subtasks && !task.blocked) return null;
  return (
    <div className="card-structure">
      {task.blocked ? <span data-blocked>Blocked</span> : null}
      {task.subtasks ? (
        <span
          role="img"
          data-subtasks
          aria-label={`${task.subtasks.done} of ${task.subtasks.total} sub-tasks done`}
        >
          {`${task.subtasks.done}/${task.subtasks.total} done`}
        </span>
      ) : null}
    </div>
  );
}
