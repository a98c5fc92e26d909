import { useFetchers, useRevalidator, useSubmit, type useLoaderData } from '@remix-run/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { applyMove, moveFormData, readMove, type Move } from '~/utils/board.ts';
import type { loader } from './route.tsx';

export type BoardTask = ReturnType<typeof useLoaderData<typeof loader>>['tasks'][number];
export type MoveReply = { moveError?: string; moved?: string };

export const moveKey = (taskId: string) => `move-${taskId}`;

/**
 * Moves are saved one at a time per task, in order: a second move of a task waits for the first to
 * be saved (a newer one replaces a waiting one), so the server never sees them out of order. The board
 * shows saved tasks with every move being saved or waiting already applied.
 *
 * Once every move sent is saved, the board is loaded once more. Each saved move reloads it too, but
 * a load begun while the next move was being saved (after an earlier move, or on a live update) can
 * come back after that move's own, or that move can end during a navigation to a task, which keeps
 * the board it has: the card would show where it was before the last move.
 */
export function useMoves(saved: BoardTask[]) {
  const fetchers = useFetchers();
  const submit = useSubmit();
  const [waiting, setWaiting] = useState<Record<string, Move>>({});
  // The moves being saved, by fetcher key; the same set until one starts or ends.
  const savingKey = fetchers
    .filter((f) => f.state === 'submitting' && f.key.startsWith('move-'))
    .map((f) => f.key)
    .sort()
    .join(' ');
  const saving = useMemo(() => new Set(savingKey ? savingKey.split(' ') : []), [savingKey]);
  const busy = saving.size > 0 || Object.keys(waiting).length > 0;
  const { revalidate } = useRevalidator();
  const wasBusy = useRef(false);
  useEffect(() => {
    if (wasBusy.current && !busy) revalidate();
    wasBusy.current = busy;
  }, [busy, revalidate]);
  // Leaving the page would drop a move that is waiting its turn: ask first, as editors do.
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  let tasks = saved;
  for (const fetcher of fetchers) {
    const move = readMove(fetcher.formData);
    if (move) tasks = applyMove(tasks, move);
  }
  for (const move of Object.values(waiting)) tasks = applyMove(tasks, move);

  const send = useCallback(
    (move: Move) =>
      submit(moveFormData(move), { method: 'post', navigate: false, fetcherKey: moveKey(move.taskId) }),
    [submit],
  );
  useEffect(() => {
    const ready = Object.values(waiting).filter((move) => !saving.has(moveKey(move.taskId)));
    if (ready.length === 0) return;
    setWaiting((current) => {
      const next = { ...current };
      for (const move of ready) delete next[move.taskId];
      return next;
    });
    for (const move of ready) send(move);
  }, [waiting, saving, send]);

  // Event handlers may run before the render that follows a submission: read the latest state.
  const savingNow = useRef(saving);
  savingNow.current = saving;
  const enqueue = (move: Move) => {
    if (savingNow.current.has(moveKey(move.taskId))) {
      setWaiting((current) => ({ ...current, [move.taskId]: move }));
    } else {
      // Counted as saving at once, so a second key press before the next render waits its turn.
      savingNow.current = new Set(savingNow.current).add(moveKey(move.taskId));
      send(move);
    }
  };
  return { tasks, enqueue, busy };
}
