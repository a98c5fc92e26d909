// Live updates, once the page is interactive: the board (live-board.ts) and the task panel subscribe
// to the changes Realtime lets their viewer see (RLS decides, as for every read) and reload their data
// when one arrives — the board first applies to its own copy what a change says itself (a card's row,
// a comment), and reloads only for the rest; it also shows who else is looking at it. Without
// JavaScript pages simply show what was true when they loaded. Here: the browser's client, one channel
// kept joined with its state, and the task panel's subscription.
import { useRevalidator, useRouteLoaderData } from '@remix-run/react';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { useEffect, useMemo, useRef, useState } from 'react';

export interface RootData {
  supabase: { url: string; anonKey: string };
}

/**
 * The root's Supabase settings, one object until they change. Every reload of the page's data loads
 * the root's again, as a new object: a channel keyed by it would leave and join again each time,
 * and miss what changed while it was away.
 */
export function useSupabaseEnv(): RootData['supabase'] | undefined {
  const root = useRouteLoaderData('root') as RootData | undefined;
  const url = root?.supabase.url;
  const anonKey = root?.supabase.anonKey;
  return useMemo(() => (url && anonKey ? { url, anonKey } : undefined), [url, anonKey]);
}

/** The browser's one Supabase client (@supabase/ssr keeps a single instance), loaded on demand. */
export function browserClient(env: RootData['supabase']): Promise<SupabaseClient> {
  return import('@supabase/ssr').then(({ createBrowserClient }) => createBrowserClient(env.url, env.anonKey));
}

type Subscribe = (channel: RealtimeChannel, changed: () => void) => RealtimeChannel;

/** How long changes are gathered into one reload of the page's data. */
const RELOAD_GATHER_MS = 50;

/** `connecting` until changes flow, `live` while they do, `interrupted` once they have stopped for OUTAGE_GRACE_MS. */
export type LiveState = 'connecting' | 'live' | 'interrupted';

/**
 * How long the connection may stay down before the page says so. A first join can go through a
 * refused attempt and a retry (about 1.6 s) with nothing lost, so a blip is not an outage: the
 * warning is for a connection really lost (or never made) for this long.
 */
export const OUTAGE_GRACE_MS = 3_000;

/**
 * Joins `topic`, lets `subscribe` add its listeners, and reloads the page's data on every change they
 * pass on — and after the socket comes back from an outage, so nothing missed stays missed. A burst
 * of changes is one reload: they are gathered for a moment, and while a reload is under way the
 * next one waits for it to end.
 */
export function useLiveChannel(
  topic: string,
  options: { private?: boolean; presenceKey?: string; onJoined?: (channel: RealtimeChannel) => void },
  subscribe: Subscribe,
): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  const env = useSupabaseEnv();
  const { revalidate, state: reloading } = useRevalidator();
  const latest = useRef({ subscribe, onJoined: options.onJoined, revalidate, reloading });
  latest.current = { subscribe, onJoined: options.onJoined, revalidate, reloading };
  // A reload asked for while one was under way, made once that one has ended.
  const waiting = useRef(false);
  useEffect(() => {
    if (reloading !== 'idle' || !waiting.current) return;
    waiting.current = false;
    revalidate();
  }, [reloading, revalidate]);

  useEffect(() => {
    if (!env) return;
    let cancelled = false;
    let leave = () => {};
    let timer: ReturnType<typeof setTimeout> | undefined;
    const changed = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (latest.current.reloading === 'idle') latest.current.revalidate();
        else waiting.current = true;
      }, RELOAD_GATHER_MS);
    };
    // Set while the channel is not live; says so once it has stayed that way for the grace period.
    let outage: ReturnType<typeof setTimeout> | undefined;
    const down = () => {
      // Leaving (the effect cleaned up) closes the channel: that is no outage.
      if (cancelled) return;
      outage ??= setTimeout(() => setState('interrupted'), OUTAGE_GRACE_MS);
    };
    const up = () => {
      clearTimeout(outage);
      outage = undefined;
      setState('live');
    };
    down();
    // Realtime acknowledges the database listeners once a join; a rejoin of a channel that was live
    // is live again as soon as it is subscribed.
    let wasLive = false;
    void browserClient(env).then((supabase) => {
      if (cancelled) return;
      let interrupted = false;
      const channel = latest.current.subscribe(
        supabase.channel(topic, {
          config: {
            private: options.private ?? false,
            ...(options.presenceKey ? { presence: { key: options.presenceKey } } : {}),
          },
        }),
        changed,
      );
      // Realtime says when it listens to the database for this channel: only then is it live.
      channel.on('system', {}, (message: { extension?: string; status?: string }) => {
        if (message.extension === 'postgres_changes' && message.status === 'ok') {
          wasLive = true;
          up();
        }
      });
      channel.subscribe((status) => {
        if (status === 'SUBSCRIBED') {
          latest.current.onJoined?.(channel);
          if (wasLive) up();
          if (interrupted) changed();
          interrupted = false;
        } else {
          interrupted = true;
          down();
        }
      });
      leave = () => void supabase.removeChannel(channel);
    });
    return () => {
      cancelled = true;
      clearTimeout(timer);
      clearTimeout(outage);
      leave();
    };
  }, [env, topic, options.private, options.presenceKey]);
  return state;
}

/**
 * A delete's handler: deletes carry only the old row's key, so they cannot be filtered by workspace
 * or task; one reloads the page only when that key (its `column`) is one the page shows.
 */
export function ifShown(shown: () => Set<string>, column: string, changed: () => void) {
  return (change: { old: unknown }) => {
    const id = (change.old as Record<string, unknown>)[column];
    if (typeof id === 'string' && shown().has(id)) changed();
  };
}

/** The workspace's labels made, renamed or recoloured, and one the page shows deleted. */
export function onLabels(
  channel: RealtimeChannel,
  workspaceId: string,
  shown: () => Set<string>,
  changed: () => void,
): RealtimeChannel {
  return channel
    .on(
      'postgres_changes',
      { event: '*', schema: 'public', table: 'labels', filter: `workspace_id=eq.${workspaceId}` },
      changed,
    )
    .on(
      'postgres_changes',
      { event: 'DELETE', schema: 'public', table: 'labels' },
      ifShown(shown, 'id', changed),
    );
}

/**
 * The task panel, live: its comments, the task itself, the labels on it, and the workspace's labels
 * it offers (renamed, recoloured, made or deleted by an admin elsewhere).
 */
export function useLiveTask(
  taskId: string,
  known: { workspaceId: string; commentIds: string[]; labelIds: string[] },
): LiveState {
  const ids = useRef({ comments: new Set<string>(), labels: new Set<string>() });
  ids.current = { comments: new Set(known.commentIds), labels: new Set(known.labelIds) };
  // Deletes carry only the key, so they cannot be filtered by task or workspace: each is checked
  // against what the panel shows.
  return useLiveChannel(`task:${taskId}`, {}, (channel, changed) =>
    onLabels(channel, known.workspaceId, () => ids.current.labels, changed)
      .on(
        'postgres_changes',
        { event: '*', schema: 'public', table: 'comments', filter: `task_id=eq.${taskId}` },
        changed,
      )
      .on(
        'postgres_changes',
        { event: 'DELETE', schema: 'public', table: 'comments' },
        ifShown(() => ids.current.comments, 'id', changed),
      )
      // The task itself (its fields, or its deletion) changes under the panel too.
      .on(
        'postgres_changes',
        { event: 'UPDATE', schema: 'public', table: 'tasks', filter: `id=eq.${taskId}` },
        changed,
      )
      // A label put on or taken off: the key of task_labels holds the task, so deletes filter too.
      .on(
        'postgres_changes',
        { event: '*', schema: 'public', table: 'task_labels', filter: `task_id=eq.${taskId}` },
        changed,
      )
      // A new entry in the task's history (a change the rows above do not show: a link, a parent).
      .on(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'task_history', filter: `task_id=eq.${taskId}` },
        changed,
      ),
  );
}
