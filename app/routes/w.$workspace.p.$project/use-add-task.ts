import { useLocation, type useActionData } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import type { Status } from '~/utils/board.ts';
import type { action } from './route.tsx';

/**
 * "Add task": a column's form opens from its button (or `n`), and Esc or Cancel closes it. Without
 * JavaScript every form is open (app/tailwind.css, `.no-js-only`); a form whose create was refused
 * stays open with its message. The board's new-task address (`?new=1`, `newTaskPath`) opens
 * `asked`'s form with its title focused, on the first load and on every navigation to it (the
 * command palette's "New task in …"); the board's own links and redirects leave the parameter off.
 * Without JavaScript that address is the board, every form open.
 */
export function useAddTask(reply: ReturnType<typeof useActionData<typeof action>>, asked: Status | null) {
  const location = useLocation();
  const [adding, setAdding] = useState<Status | null>(asked);
  const [dismissedReply, setDismissedReply] = useState<unknown>(null);
  // A navigation to the address opens the form in the same render (React's "adjusting state when a
  // prop changes"), so the effect below finds it shown.
  const [seen, setSeen] = useState(location.key);
  if (seen !== location.key) {
    setSeen(location.key);
    if (asked) setAdding(asked);
  }
  useEffect(() => {
    if (asked) document.getElementById(`new-task-${asked}-title`)?.focus();
  }, [location.key, asked]);
  const refusedIn = reply && 'status' in reply && reply !== dismissedReply ? reply.status : null;
  // Focus moves in the same event, once the render that shows or hides the form is in the page: a
  // key pressed right after cannot land in a form that is closing.
  const open = (status: Status) => {
    flushSync(() => setAdding(status));
    document.getElementById(`new-task-${status}-title`)?.focus();
  };
  const close = (status: Status) => {
    flushSync(() => {
      setAdding(null);
      setDismissedReply(reply);
    });
    document.getElementById(`add-task-${status}`)?.focus();
  };
  /** Whether `status`'s form shows: opened, or refused and not dismissed since. */
  const isOpen = (status: Status) => adding === status || refusedIn === status;
  return { adding, isOpen, open, close };
}

export type AddTask = ReturnType<typeof useAddTask>;
