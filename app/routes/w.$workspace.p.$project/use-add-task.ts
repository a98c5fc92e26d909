import type { useActionData } from '@remix-run/react';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import type { Status } from '~/utils/board.ts';
import type { action } from './route.tsx';

/**
 * "Add task": a column's form opens from its button (or `n`), and Esc or Cancel closes it. Without
 * JavaScript every form is open (app/tailwind.css, `.no-js-only`); a form whose create was refused
 * stays open with its message.
 */
export function useAddTask(reply: ReturnType<typeof useActionData<typeof action>>) {
  const [adding, setAdding] = useState<Status | null>(null);
  const [dismissedReply, setDismissedReply] = useState<unknown>(null);
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
