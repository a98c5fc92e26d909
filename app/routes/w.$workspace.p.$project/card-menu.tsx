// A card's compact menu ("⋯"): open the task, move it to another column, or a step up or
// down. It exists only with JavaScript (the board draws it once hydrated); without, the same moves
// are the task panel's forms. A disclosure: the button toggles a list of buttons, Esc or a click
// elsewhere closes it and gives the focus back.
import { useEffect, useId, useRef, useState } from 'react';
import type { BoardStatus, Status } from '~/utils/board.ts';
import { taskRef } from '~/utils/projects.ts';

export type CardMove = { to: Status } | { step: -1 | 1 };

export function CardMenu({
  status,
  statuses,
  number,
  projectKey,
  taskHref,
  first,
  last,
  onMove,
}: {
  status: Status;
  /** The board's columns, in order. */
  statuses: BoardStatus[];
  number: number;
  projectKey: string;
  taskHref: string;
  /** Whether the card is the first (last) of its column: no step up (down). */
  first: boolean;
  last: boolean;
  onMove: (move: CardMove) => void;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const ref = taskRef(projectKey, number);

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('a, button')?.focus();
    const outside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const choose = (move: CardMove) => {
    setOpen(false);
    onMove(move);
  };
  const item = 'block w-full px-3 py-1.5 text-left text-sm hover:bg-slate-100 disabled:text-slate-400';
  return (
    <div className="relative" data-card-menu>
      <button
        ref={button}
        type="button"
        aria-label={`Actions for ${ref}`}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((was) => !was)}
        className="rounded px-1.5 leading-5 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
      >
        ⋯
      </button>
      {open ? (
        <div
          ref={menu}
          id={id}
          className="absolute right-0 z-20 mt-1 w-48 rounded-md border border-slate-200 bg-white py-1 shadow-lg"
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.preventDefault();
            event.stopPropagation();
            setOpen(false);
            button.current?.focus();
          }}
        >
          {/* A plain anchor: the board opens it without a page load (its delegated click handler). */}
          <a href={taskHref} data-panel-link className={item} onClick={() => setOpen(false)}>
            Open {ref}
          </a>
          <p className="px-3 pb-0.5 pt-2 text-xs font-medium text-slate-500">Move to</p>
          {statuses
            .filter((s) => s.id !== status)
            .map((to) => (
              <button key={to.id} type="button" className={item} onClick={() => choose({ to: to.id })}>
                {to.name}
              </button>
            ))}
          <button type="button" className={item} disabled={first} onClick={() => choose({ step: -1 })}>
            Move up
          </button>
          <button type="button" className={item} disabled={last} onClick={() => choose({ step: 1 })}>
            Move down
          </button>
        </div>
      ) : null}
    </div>
  );
}
