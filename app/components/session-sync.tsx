import { useRevalidator } from '@remix-run/react';
import { useEffect, useRef } from 'react';

/**
 * The only Supabase client in the browser: it keeps the session fresh (auth-js refreshes on a
 * 30-second tick) and notices a sign-in or sign-out in another tab, then asks Remix to reload the
 * page's data. Everything else goes through loaders and actions. Loaded after hydration, so pages
 * never wait for it and work without it.
 */
export function SessionSync({
  url,
  anonKey,
  userId,
}: {
  url: string;
  anonKey: string;
  userId: string | null;
}) {
  const { revalidate } = useRevalidator();
  const serverUserId = useRef(userId);
  serverUserId.current = userId;

  useEffect(() => {
    let stop = () => {};
    let cancelled = false;
    void import('@supabase/ssr').then(({ createBrowserClient }) => {
      if (cancelled) return;
      const supabase = createBrowserClient(url, anonKey);
      const { data } = supabase.auth.onAuthStateChange((_event, session) => {
        // Only a change of who is signed in matters; token refreshes keep the same user.
        if ((session?.user.id ?? null) !== serverUserId.current) revalidate();
      });
      stop = () => {
        data.subscription.unsubscribe();
        void supabase.auth.stopAutoRefresh();
      };
    });
    return () => {
      cancelled = true;
      stop();
    };
  }, [url, anonKey, revalidate]);

  // Sign-in and sign-out happen in form posts on the server, which the browser client in other tabs
  // never hears of; so each tab says which user the server last rendered, and a tab showing someone
  // else revalidates (a signed-out tab then lands on the sign-in page).
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const channel = new BroadcastChannel('crewboard-session');
    channel.onmessage = (event: MessageEvent<string | null>) => {
      if (event.data !== serverUserId.current) revalidate();
    };
    channel.postMessage(userId);
    return () => channel.close();
  }, [userId, revalidate]);

  return null;
}
