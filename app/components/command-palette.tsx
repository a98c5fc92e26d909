// Ctrl-K / ⌘K: a dialog to go anywhere by typing — tasks (the search page's search), projects,
// pages and actions ("New task in WEB": the board's new-task address). The WAI-ARIA combobox
// pattern (https://www.w3.org/WAI/ARIA/apg/patterns/combobox/): the text box owns a listbox, arrows
// move the active option, Enter goes there, Escape closes. With JavaScript only; without it the
// search page does the same job.
import { useFetcher, useNavigate, useParams } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import type { SearchAnswer } from '~/utils/search-query.ts';
import { choicesFor, placesOf, type Choice, type PaletteProps } from './palette-choices.ts';

export function CommandPalette(props: PaletteProps) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen(true);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
  return open ? <Palette {...props} close={() => setOpen(false)} /> : null;
}

function Palette({ close, ...props }: PaletteProps & { close: () => void }) {
  const { workspace } = props;
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const tasks = useFetcher<SearchAnswer>();
  const navigate = useNavigate();
  const { project } = useParams();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => box.current?.focus(), []);
  useEffect(() => () => clearTimeout(timer.current), []);

  const search = workspace ? `/w/${workspace.slug}/search` : null;
  const found: Choice[] =
    text.trim() === ''
      ? []
      : (tasks.data?.results ?? []).map((r) => ({
          id: `task-${r.id}`,
          label: `${r.ref} ${r.title.map((piece) => piece.text).join('')}`,
          href: r.href,
        }));
  const choices = choicesFor(placesOf(props, project), found, text, search);
  const current = Math.min(active, Math.max(choices.length - 1, 0));

  const go = (choice: Choice | undefined) => {
    if (!choice) return;
    close();
    navigate(choice.href);
  };
  const type = (value: string) => {
    setText(value);
    setActive(0);
    clearTimeout(timer.current);
    if (value.trim() !== '' && search)
      timer.current = setTimeout(() => tasks.load(`${search}.json?q=${encodeURIComponent(value)}`), 150);
  };
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + choices.length) % Math.max(choices.length, 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      go(choices[current]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  };

  return (
    <div
      className="fixed inset-0 z-50 flex items-start justify-center bg-slate-900/40 p-4 pt-24"
      onClick={close}
    >
      <div
        role="dialog"
        aria-modal="true"
        aria-label="Go to"
        className="w-full max-w-lg rounded-lg bg-white shadow-xl"
        onClick={(event) => event.stopPropagation()}
      >
        <input
          ref={box}
          role="combobox"
          aria-label={workspace ? 'Go to a task, project or page' : 'Go to a workspace or page'}
          aria-expanded={choices.length > 0}
          aria-controls="palette-choices"
          aria-autocomplete="list"
          aria-activedescendant={choices[current] ? `palette-${choices[current].id}` : undefined}
          value={text}
          onChange={(event) => type(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={
            workspace ? 'Type a task, a key such as WEB-12, or a page' : 'Type a workspace or a page'
          }
          className="block w-full rounded-t-lg border-b border-slate-200 px-4 py-3 outline-none"
        />
        <ul
          id="palette-choices"
          role="listbox"
          aria-label="Choices"
          className="max-h-80 overflow-y-auto py-1"
        >
          {choices.map((choice, i) => (
            <li
              key={choice.id}
              id={`palette-${choice.id}`}
              role="option"
              aria-selected={i === current}
              onClick={() => go(choice)}
              onMouseMove={() => setActive(i)}
              className={`cursor-pointer truncate px-4 py-2 text-sm ${i === current ? 'bg-indigo-600 text-white' : 'text-slate-800'}`}
            >
              {choice.label}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
