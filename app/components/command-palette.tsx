// Ctrl-K / ⌘K: a dialog to go anywhere by typing — tasks (the search page's search), projects and
// pages. The WAI-ARIA combobox pattern (https://www.w3.org/WAI/ARIA/apg/patterns/combobox/): the
// text box owns a listbox, arrows move the active option, Enter goes there, Escape closes. With
// JavaScript only; without it the search page does the same job.
import { useFetcher, useNavigate } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import type { SearchAnswer } from '~/utils/search-query.ts';

interface Choice {
  id: string;
  label: string;
  href: string;
}

export function CommandPalette({
  workspace,
  projects,
}: {
  workspace: string;
  projects: Array<{ key: string; name: string }>;
}) {
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
  return open ? <Palette workspace={workspace} projects={projects} close={() => setOpen(false)} /> : null;
}

function Palette({
  workspace,
  projects,
  close,
}: {
  workspace: string;
  projects: Array<{ key: string; name: string }>;
  close: () => void;
}) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const tasks = useFetcher<SearchAnswer>();
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => box.current?.focus(), []);
  useEffect(() => () => clearTimeout(timer.current), []);

  const base = `/w/${workspace}`;
  const pages: Choice[] = [
    { id: 'inbox', label: 'Go to Inbox', href: '/inbox' },
    { id: 'overview', label: 'Go to Overview', href: base },
    { id: 'members', label: 'Go to Members', href: `${base}/members` },
    { id: 'labels', label: 'Go to Labels', href: `${base}/labels` },
    { id: 'settings', label: 'Go to Settings', href: `${base}/settings` },
    ...projects.map((p) => ({
      id: `project-${p.key}`,
      label: `Go to ${p.name} (${p.key})`,
      href: `${base}/p/${p.key.toLowerCase()}`,
    })),
  ];
  const wanted = text.trim().toLowerCase();
  const found: Choice[] =
    wanted === ''
      ? []
      : (tasks.data?.results ?? []).map((r) => ({
          id: `task-${r.id}`,
          label: `${r.ref} ${r.title.map((piece) => piece.text).join('')}`,
          href: r.href,
        }));
  const choices = [
    ...found,
    ...pages.filter((c) => c.label.toLowerCase().includes(wanted)),
    ...(wanted === ''
      ? []
      : [
          {
            id: 'search',
            label: `Search for “${text.trim()}”`,
            href: `${base}/search?q=${encodeURIComponent(text)}`,
          },
        ]),
  ];
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
    if (value.trim() !== '')
      timer.current = setTimeout(() => tasks.load(`${base}/search.json?q=${encodeURIComponent(value)}`), 150);
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
          aria-label="Go to a task, project or page"
          aria-expanded={choices.length > 0}
          aria-controls="palette-choices"
          aria-autocomplete="list"
          aria-activedescendant={choices[current] ? `palette-${choices[current].id}` : undefined}
          value={text}
          onChange={(event) => type(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Type a task, a key such as WEB-12, or a page"
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
