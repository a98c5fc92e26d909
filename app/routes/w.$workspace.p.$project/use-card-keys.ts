import { useNavigate } from '@remix-run/react';
import type { KeyboardEvent } from 'react';
import { modified } from '~/utils/keys.ts';
import type { BoardStatus } from '~/utils/board.ts';
import type { CardMove } from './card-menu.tsx';
import type { BoardTask } from './use-moves.ts';
import type { Placement } from './use-placement.ts';

/** A card's own link (task-card.tsx); its menu's "Open" is marked `data-panel-link` instead. */
export const CARD_LINK = '.card > a';

/** Moving a card from the keyboard: its own keys, and its menu's moves. */
export function useCardKeys({ latest, place, keepFocusOn }: Placement, statuses: BoardStatus[]) {
  const order = statuses.map((s) => s.id);
  const navigate = useNavigate();

  // A card's keys, pressed on its handle or its link (not inside its menu): arrows move it (the
  // handle's, as the link's arrows scroll), `[` and `]` move it a column, Enter on the handle opens it.
  const onCardKeyDown = (event: KeyboardEvent<HTMLElement>, shownTask: BoardTask, taskHref: string) => {
    if (event.defaultPrevented || modified(event)) return;
    const target = event.target as HTMLElement;
    const onHandle = target.id === `handle-${shownTask.id}`;
    const onLink = target.matches(CARD_LINK);
    if (!onHandle && !onLink) return;
    if (onHandle && event.key === 'Enter') {
      event.preventDefault();
      navigate(taskHref);
      return;
    }
    const tasks = latest.current;
    const task = tasks.find((t) => t.id === shownTask.id) ?? shownTask;
    const columnIndex = order.indexOf(task.status);
    const index = tasks.filter((t) => t.status === task.status).findIndex((t) => t.id === task.id);
    const key = onHandle ? event.key : event.key === '[' || event.key === ']' ? event.key : '';
    const destination =
      key === 'ArrowUp'
        ? { status: task.status, index: index - 1 }
        : key === 'ArrowDown'
          ? { status: task.status, index: index + 1 }
          : key === 'ArrowLeft' || key === '['
            ? { status: order[columnIndex - 1], index }
            : key === 'ArrowRight' || key === ']'
              ? { status: order[columnIndex + 1], index }
              : null;
    if (!destination) return;
    event.preventDefault();
    if (!destination.status || destination.index < 0) return;
    keepFocusOn(task.id);
    place(task.id, destination.status, destination.index);
  };

  // The card menu's moves: another column (to its top, where it shows), or a step in its own.
  const onCardMenu = (taskId: string, move: CardMove) => {
    const task = latest.current.find((t) => t.id === taskId);
    if (!task) return;
    keepFocusOn(taskId);
    if ('to' in move) {
      place(taskId, move.to, 0);
      return;
    }
    const index = latest.current.filter((t) => t.status === task.status).findIndex((t) => t.id === taskId);
    place(taskId, task.status, index + move.step);
  };

  return { onCardKeyDown, onCardMenu };
}

export type CardKeys = ReturnType<typeof useCardKeys>;
