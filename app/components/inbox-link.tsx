// The sidebar's Inbox link, with the number of unread notifications once the page is interactive:
// counted as the reader (row-level security shows each person only their own), and counted again
// whenever Realtime says one of theirs was written or changed (marked read elsewhere, archived).
import { NavLink, useRouteLoaderData } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { browserClient, type RootData } from './live.tsx';

export function InboxLink() {
  const root = useRouteLoaderData('root') as RootData | undefined;
  const env = root?.supabase;
  const [unread, setUnread] = useState<number | null>(null);

  useEffect(() => {
    if (!env) return;
    let cancelled = false;
    let leave = () => {};
    let timer: ReturnType<typeof setTimeout> | undefined;
    void browserClient(env).then((supabase) => {
      if (cancelled) return;
      const count = async () => {
        const { count: found, error } = await supabase
          .from('notifications')
          .select('id', { count: 'exact', head: true })
          .is('read_at', null)
          .is('archived_at', null);
        if (!cancelled && !error) setUnread(found ?? 0);
      };
      // A burst of changes (mark all read) is counted once.
      const changed = () => {
        clearTimeout(timer);
        timer = setTimeout(() => void count(), 100);
      };
      const channel = supabase
        .channel('inbox-count')
        .on('postgres_changes', { event: '*', schema: 'public', table: 'notifications' }, changed)
        .subscribe((status) => {
          // Counted once listening, so nothing written in between is missed.
          if (status === 'SUBSCRIBED') void count();
        });
      leave = () => void supabase.removeChannel(channel);
    });
    return () => {
      cancelled = true;
      clearTimeout(timer);
      leave();
    };
  }, [env]);

  return (
    <NavLink to="/inbox" className="nav-link flex items-center justify-between">
      <span>Inbox</span>
      {unread ? (
        <span
          data-testid="unread-count"
          className="rounded-full bg-indigo-600 px-2 py-0.5 text-xs font-semibold text-white"
        >
          {unread > 99 ? '99+' : unread}
          <span className="sr-only"> unread</span>
        </span>
      ) : null}
    </NavLink>
  );
}
