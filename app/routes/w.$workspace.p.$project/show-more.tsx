import { Link, useNavigate, useNavigation } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { COLUMN_WINDOW, showMoreSearch, type BoardStatus, type Status } from '~/utils/board.ts';

/** * The link to a column's next cards. Without JavaScript it is a link (the address says how many each
 * column shows, so the page can be shared); with it, the board also follows it by itself while it
 * is in view (useLoadOnScroll).
 */
export function ShowMore({
  status,
  name,
  shown,
  total,
  search,
  watch,
}: {
  status: Status;
  /** The column's title. */
  name: string;
  shown: number;
  total: number;
  search: string;
  watch: (status: Status, element: HTMLElement | null) => void;
}) {
  const navigation = useNavigation();
  const loading = navigation.state === 'loading' && navigation.location.search === search;
  const next = Math.min(COLUMN_WINDOW, total - shown);
  const ref = useCallback((element: HTMLElement | null) => watch(status, element), [watch, status]);
  return (
    <p className="mt-2 text-center text-sm">
      <Link
        ref={ref}
        to={search}
        replace
        preventScrollReset
        className="text-indigo-700 underline hover:text-indigo-900"
        aria-label={`Show ${next} more in ${name} (${shown} of ${total} shown)`}
      >
        {loading ? 'Loading…' : `Show ${next} more`}
      </Link>
    </p>
  );
}

/**
 * With JavaScript, a column's next cards load while its "Show more" link is in view: one column at
 * a time (a navigation started for one column would cancel another's), and again after each load
 * for as long as a link stays in view. Returns the `watch` callback the links register with.
 */
export function useLoadOnScroll(
  searchParams: URLSearchParams,
  statuses: BoardStatus[],
  shown: (status: Status) => number,
) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const inView = useRef(new Set<Status>());
  const elements = useRef(new Map<Status, HTMLElement>());
  const [observer, setObserver] = useState<IntersectionObserver | null>(null);
  const [seen, setSeen] = useState(0);
  useEffect(() => {
    if (typeof IntersectionObserver === 'undefined') return;
    const watcher = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const status = (entry.target as HTMLElement).dataset.moreFor ?? '';
        if (entry.isIntersecting) inView.current.add(status);
        else inView.current.delete(status);
      }
      setSeen((n) => n + 1);
    });
    for (const element of elements.current.values()) watcher.observe(element);
    setObserver(watcher);
    return () => watcher.disconnect();
  }, []);
  const idle = navigation.state === 'idle';
  const wanted = statuses.map((s) => s.id).find((status) => inView.current.has(status));
  const next = wanted ? showMoreSearch(searchParams, wanted, shown(wanted) + COLUMN_WINDOW) : null;
  useEffect(() => {
    if (idle && next) navigate(next, { replace: true, preventScrollReset: true });
  }, [idle, next, seen, navigate]);
  // Stable, so a link's ref is not detached and attached again on every render.
  return useCallback(
    (status: Status, element: HTMLElement | null) => {
      const previous = elements.current.get(status);
      if (previous === element) return;
      if (previous) {
        observer?.unobserve(previous);
        elements.current.delete(status);
        inView.current.delete(status);
      }
      if (element) {
        element.dataset.moreFor = status;
        elements.current.set(status, element);
        observer?.observe(element);
      }
    },
    [observer],
  );
}
