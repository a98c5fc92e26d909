// The sidebar's Inbox link, with the number of unread notifications: from the server when the page's
// own call said it (board and overview pages, without JavaScript too), then, once the page is
// interactive, counted again whenever Realtime says one of the reader's was written or changed
// (marked read elsewhere, archived): public.my_unread_notifications, as the reader.
import { NavLink } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { browserClient, useSupabaseEnv } from './live.tsx';

export function InboxLink({ unread: fromServer }: { unread: number | null }) {
  const env = useSupabaseEnv();
  const [live, setUnread] = useState<number | null>(null);
  const unread = live ?? fromServer;

  useEffect(() => {
    if (!env) return;
    let cancelled = false;
    let leave = () => {};
    let timer: ReturnType<typeof setTimeout> | undefined;
    void browserClient(env).then((supabase) => {
      if (cancelled) return;
      const count = async () => {
        const { data, error } = await supabase.rpc('my_unread_notifications');
        if (!cancelled && !error) setUnread(typeof data === 'number' ? data : 0);
      };
      // Counted at once; a burst of changes (mark all read) within the next 100 ms is counted once
      // more at its end.
      let again = false;
      const changed = () => {
        if (timer !== undefined) {
          again = true;
          return;
        }
        void count();
        timer = setTimeout(() => {
          timer = undefined;
          if (again) {
            again = false;
            changed();
          }
        }, 100);
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
