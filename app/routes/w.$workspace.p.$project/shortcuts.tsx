// The board's keyboard shortcuts: what they are, the dialog that lists them (`?`), and the
// page-wide keys (`n`, `?`). Keys on a focused card (arrows, `[`, `]`, Enter) are the card's own
// (route.tsx onCardKeyDown); Esc closes the task panel (its route).
import { useEffect, useRef, type RefObject } from 'react';
import { modified, typing } from '~/utils/keys.ts';

export const SHORTCUTS: ReadonlyArray<{ keys: string[]; what: string }> = [
  { keys: ['n'], what: 'New task, in the focused card’s column (else To do)' },
  { keys: ['↑', '↓'], what: 'Move the focused card up or down its column' },
  { keys: ['←', '→'], what: 'Move the focused card to the column before or after' },
  { keys: ['[', ']'], what: 'Move the focused card to the column before or after' },
  { keys: ['Enter'], what: 'Open the focused card' },
  { keys: ['Esc'], what: 'Close the open task, a menu or this list' },
  { keys: ['?'], what: 'Show these shortcuts' },
];

/** `n` and `?` anywhere on the board page, except while typing or in an open dialog. */
export function useBoardKeys(handlers: { newTask: (() => void) | null; help: () => void }): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || modified(event) || typing(event.target)) return;
      if (document.querySelector('dialog[open]')) return;
      if (event.key === '?') {
        event.preventDefault();
        latest.current.help();
      } else if (event.key === 'n' && latest.current.newTask) {
        event.preventDefault();
        latest.current.newTask();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}

/** The list of shortcuts, a modal dialog: Esc or its Close button closes it. */
export function ShortcutsHelp({ dialog }: { dialog: RefObject<HTMLDialogElement> }) {
  return (
    <dialog
      ref={dialog}
      aria-labelledby="shortcuts-title"
      className="w-full max-w-md rounded-lg bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/40"
    >
      <h2 id="shortcuts-title" className="text-base font-semibold">
        Keyboard shortcuts
      </h2>
      <dl className="mt-3 space-y-2 text-sm">
        {SHORTCUTS.map(({ keys, what }) => (
          <div key={what + keys.join()} className="flex items-baseline gap-3">
            <dt className="w-20 shrink-0">
              {keys.map((key) => (
                <kbd
                  key={key}
                  className="mr-1 rounded border border-slate-300 bg-slate-50 px-1.5 font-mono text-xs"
                >
                  {key}
                </kbd>
              ))}
            </dt>
            <dd className="text-slate-700">{what}</dd>
          </div>
        ))}
      </dl>
      <form method="dialog" className="mt-4 text-right">
        <button type="submit" className="rounded-md px-3 py-1.5 text-sm font-medium hover:bg-slate-100">
          Close
        </button>
      </form>
    </dialog>
  );
}
