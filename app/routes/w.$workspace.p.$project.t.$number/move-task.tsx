import { Form } from '@remix-run/react';
import type { BoardStatus, Status } from '~/utils/board.ts';

/** What both of the panel's move forms send besides their choice: a move of this task, back here. */
function MoveFields({ taskId, over }: { taskId: string; over: 'board' | 'list' }) {
  return (
    <>
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="taskId" value={taskId} />
      <input type="hidden" name="back" value={over === 'list' ? 'list-panel' : 'panel'} />
    </>
  );
}

/**
 * Moving the task without JavaScript: to another column (its bottom), or one step up or down its
 * own. The board's action does it and sends the browser back here. With JavaScript these forms are
 * hidden (`no-js-only`): the board moves cards by drag and drop, by keyboard and by each
 * card's "⋯" menu, and the panel's Status field still changes the column.
 */
export function MoveTask({
  task,
  statuses,
  taskName,
  boardPath,
  search,
  over,
}: {
  task: { id: string; status: Status };
  /** The project's statuses, in board order. */
  statuses: BoardStatus[];
  /** `WEB-12`. */
  taskName: string;
  boardPath: string;
  search: string;
  /** What the panel is open over: the move comes back to it there. */
  over: 'board' | 'list';
}) {
  const action = `${boardPath}${search}`;
  const button = 'rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-50';
  return (
    <div className="no-js-only mt-3 flex flex-wrap items-end gap-3 rounded-md bg-slate-50 p-3">
      <Form method="post" action={action} className="flex items-end gap-2">
        <MoveFields taskId={task.id} over={over} />
        <div>
          <label htmlFor="move-status" className="block text-xs font-medium text-slate-600">
            Move {taskName} to
          </label>
          <select
            id="move-status"
            name="status"
            defaultValue={task.status}
            key={task.status}
            className="mt-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
          >
            {statuses.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={button}>
          Move
        </button>
      </Form>
      <Form method="post" action={action} className="flex gap-2" aria-label={`Reorder ${taskName}`}>
        <MoveFields taskId={task.id} over={over} />
        <input type="hidden" name="status" value={task.status} />
        <button
          type="submit"
          name="direction"
          value="up"
          aria-label={`Move ${taskName} up`}
          className={button}
        >
          ↑
        </button>
        <button
          type="submit"
          name="direction"
          value="down"
          aria-label={`Move ${taskName} down`}
          className={button}
        >
          ↓
        </button>
      </Form>
    </div>
  );
}
