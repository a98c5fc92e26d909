import { useNavigate, type useActionData } from '@remix-run/react';
import type { MouseEvent, ReactNode } from 'react';
import { canBeOverdue, COLUMN_WINDOW, showMoreSearch, type BoardStatus, type Status } from '~/utils/board.ts';
import { taskPath } from '~/utils/projects.ts';
import { CardMenu } from './card-menu.tsx';
import { NewTaskForm } from './new-task-form.tsx';
import type { action } from './route.tsx';
import { ShowMore } from './show-more.tsx';
import { TaskCard } from './task-card.tsx';
import type { AddTask } from './use-add-task.ts';
import type { CardDrag } from './use-card-drag.ts';
import { CARD_LINK, type CardKeys } from './use-card-keys.ts';
import type { BoardTask } from './use-moves.ts';

/** The links that open a task's panel over the board. */
const PANEL_LINKS = `${CARD_LINK}, a[data-panel-link]`;

/**
 * The columns: a row as wide as they need, scrolled sideways when they do not fit (app/tailwind.css,
 * `.board-columns`). Cards link to their panel with plain anchors (a <Link> per card costs more to
 * render than the card); one handler here opens them as client-side navigations, as a <Link> would.
 */
export function BoardColumns({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLElement>) => {
    const anchor = (event.target as Element).closest<HTMLAnchorElement>(PANEL_LINKS);
    if (!anchor || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(anchor.getAttribute('href') ?? '');
  };
  return (
    // Delegation: the anchors inside are the interactive elements; keys reach them as usual.
    <div className="board-columns mt-4" onClick={onClick}>
      {children}
    </div>
  );
}

/** What every column of one board shares. */
export interface ColumnContext {
  projectKey: string;
  workspace: string;
  /** The project's statuses, in order: the columns. */
  statuses: BoardStatus[];
  /** The board's query string (windows, filters), kept on the cards' links. */
  searchParams: URLSearchParams;
  canEdit: boolean;
  /** JavaScript runs: drag and drop and the card keys exist. */
  interactive: boolean;
  today: string;
  people: Map<string, { name: string; avatar: string | null }>;
  /** The board's first card, the one that shows where its menu and handle are. */
  firstTaskId: string | undefined;
  drag: CardDrag;
  keys: CardKeys;
  addTask: AddTask;
  reply: ReturnType<typeof useActionData<typeof action>>;
  createKey: string;
  watchShowMore: (status: Status, element: HTMLElement | null) => void;
}

export function BoardColumn({
  status: column,
  cards,
  total,
  of,
  board,
}: {
  status: BoardStatus;
  /** The column's cards as shown, moves being saved included. */
  cards: BoardTask[];
  /** How many cards the column holds (that match the filters), beyond its window too. */
  total: number;
  /** With a filter: how many it holds without. */
  of: number | null;
  board: ColumnContext;
}) {
  const { drag, keys, addTask, canEdit, projectKey } = board;
  const status: Status = column.id;
  const search = board.searchParams.size > 0 ? `?${board.searchParams.toString()}` : '';
  const slot = drag.dropAt?.status === status ? drag.dropAt.index : null;
  let slotIndex = 0;
  return (
    <section
      aria-label={column.name}
      data-status-id={status}
      className={`rounded-lg bg-slate-100 p-3 ${slot !== null ? 'ring-2 ring-indigo-300' : ''}`}
      onDragOver={canEdit ? (event) => drag.onDragOver(event, status) : undefined}
      onDrop={canEdit ? (event) => drag.onDrop(event, status) : undefined}
    >
      <h2 className="text-sm font-semibold text-slate-700">
        {column.name}{' '}
        <span className="font-normal text-slate-600">{of === null ? total : `${total} of ${of}`}</span>
      </h2>
      <ol className="mt-2 space-y-2">
        {cards.map((task, index) => {
          const taskHref = `${taskPath(board.workspace, projectKey, task.number)}${search}`;
          // The drop line sits above the card at the slot (counting without the dragged card).
          const lineAbove = slot !== null && task.id !== drag.dragging && slotIndex++ === slot;
          return (
            <TaskCard
              key={task.id}
              task={task}
              canEdit={canEdit}
              interactive={board.interactive}
              dragging={drag.dragging === task.id}
              lineAbove={lineAbove}
              onDragStart={() => drag.start(task.id)}
              onDragEnd={drag.end}
              onKeyDown={(event) => keys.onCardKeyDown(event, task, taskHref)}
              taskHref={taskHref}
              discover={task.id === board.firstTaskId}
              menu={
                <CardMenu
                  status={task.status}
                  statuses={board.statuses}
                  number={task.number}
                  projectKey={projectKey}
                  taskHref={taskHref}
                  first={index === 0}
                  last={index === cards.length - 1}
                  onMove={(move) => keys.onCardMenu(task.id, move)}
                />
              }
              projectKey={projectKey}
              assignee={task.assignee ? board.people.get(task.assignee) : undefined}
              today={board.today}
              mayBeOverdue={canBeOverdue(column.category)}
            />
          );
        })}
        {slot !== null && slot >= cards.filter((t) => t.id !== drag.dragging).length ? (
          <li aria-hidden="true" className="h-1 rounded bg-indigo-500" />
        ) : null}
      </ol>
      {total > cards.length ? (
        <ShowMore
          status={status}
          name={column.name}
          shown={cards.length}
          total={total}
          search={showMoreSearch(board.searchParams, status, cards.length + COLUMN_WINDOW)}
          watch={board.watchShowMore}
        />
      ) : null}
      {canEdit ? (
        <>
          {addTask.adding !== status ? (
            <button
              type="button"
              id={`add-task-${status}`}
              onClick={() => addTask.open(status)}
              className="js-only add-task"
            >
              + Add task
            </button>
          ) : null}
          <div className="no-js-only" data-open={addTask.isOpen(status) ? '' : undefined}>
            <NewTaskForm
              status={status}
              reply={board.reply}
              createKey={board.createKey}
              onCancel={() => addTask.close(status)}
            />
          </div>
        </>
      ) : null}
    </section>
  );
}
