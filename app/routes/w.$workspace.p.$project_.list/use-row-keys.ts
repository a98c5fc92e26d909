import { useNavigate, useNavigation } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { modified, typing } from '~/utils/keys.ts';

/** A row's own link (its title): what `j` and `k` move the focus between, and what Enter follows. */
const ROW_LINK = 'a[data-row-link]';

/**
 * `j` and `k` anywhere on the list page move the focus to the next or the previous row (its title's
 * link, which Enter then opens), except while typing or in an open dialog; the first press starts at
 * the first row.
 */
export function useRowKeys(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'j' && event.key !== 'k') return;
      if (event.defaultPrevented || modified(event) || typing(event.target)) return;
      if (document.querySelector('dialog[open]')) return;
      const links = [...document.querySelectorAll<HTMLAnchorElement>(ROW_LINK)];
      if (links.length === 0) return;
      event.preventDefault();
      const row = document.activeElement?.closest('tr[data-row]');
      const at = row ? links.findIndex((link) => row.contains(link)) : -1;
      const next = at === -1 ? 0 : Math.min(links.length - 1, Math.max(0, at + (event.key === 'j' ? 1 : -1)));
      const link = links[next];
      link?.focus();
      link?.scrollIntoView({ block: 'nearest' });
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}

/**
 * With JavaScript, the list's next rows load while its "Show more" link is in view, and again after
 * each load for as long as it stays there. Returns the ref the link registers with.
 */
export function useLoadMore(search: string | null) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [inView, setInView] = useState(false);
  const observer = useRef<IntersectionObserver | null>(null);
  const ref = useCallback((element: HTMLElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    setInView(false);
    if (!element || typeof IntersectionObserver === 'undefined') return;
    observer.current = new IntersectionObserver((entries) =>
      setInView(entries.some((e) => e.isIntersecting)),
    );
    observer.current.observe(element);
  }, []);
  useEffect(() => () => observer.current?.disconnect(), []);
  const idle = navigation.state === 'idle';
  useEffect(() => {
    if (idle && inView && search) navigate(search, { replace: true, preventScrollReset: true });
  }, [idle, inView, search, navigate]);
  return ref;
}
