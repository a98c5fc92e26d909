import { useState, type DragEvent } from 'react';
import type { Status } from '~/utils/board.ts';
import type { Placement } from './use-placement.ts';

/** Drag and drop between and within columns: which card is dragged, and the slot it would drop into. */
export function useCardDrag({ latest, place }: Pick<Placement, 'latest' | 'place'>) {
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropAt, setDropAt] = useState<{ status: Status; index: number } | null>(null);
  const end = () => {
    setDragging(null);
    setDropAt(null);
  };

  const onDragOver = (event: DragEvent<HTMLElement>, status: Status) => {
    if (!dragging) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    // The slot is before the first card (other than the dragged one) whose middle is below the pointer.
    const cards = [...event.currentTarget.querySelectorAll<HTMLElement>('[data-task-id]')].filter(
      (card) => card.dataset.taskId !== dragging,
    );
    const below = cards.findIndex((card) => {
      const box = card.getBoundingClientRect();
      return event.clientY < box.top + box.height / 2;
    });
    const index = below === -1 ? cards.length : below;
    if (dropAt?.status !== status || dropAt.index !== index) setDropAt({ status, index });
  };

  const onDrop = (event: DragEvent<HTMLElement>, status: Status) => {
    if (!dragging) return;
    event.preventDefault();
    const index =
      dropAt?.status === status ? dropAt.index : latest.current.filter((t) => t.status === status).length;
    place(dragging, status, index);
    end();
  };

  return { dragging, dropAt, start: setDragging, end, onDragOver, onDrop };
}

export type CardDrag = ReturnType<typeof useCardDrag>;
