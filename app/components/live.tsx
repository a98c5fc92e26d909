// Live updates, once the page is interactive: the board and the task panel subscribe to the changes
// Realtime lets their viewer see (RLS decides, as for every read) and reload their data when one
// arrives — the board first applies to its own copy what a change says itself (a card's row, a
// comment), and reloads only for the rest; it also shows who else is looking at it. Without
// JavaScript pages simply show what was true when they loaded.
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
function useLiveChannel(
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
function ifShown(shown: () => Set<string>, column: string, changed: () => void) {
  return (change: { old: unknown }) => {
    const id = (change.old as Record<string, unknown>)[column];
    if (typeof id === 'string' && shown().has(id)) changed();
  };
}

/** The workspace's labels made, renamed or recoloured, and one the page shows deleted. */
function onLabels(
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

export interface Viewer {
  id: string;
  name: string;
}

/** A row as Realtime sends it: the columns the reader may select. */
export type ChangedRow = Record<string, unknown>;

/**
 * What the board applies to its own copy. Each returns false when the change is not applied (or
 * not wholly): the board is then reloaded.
 */
export interface BoardChanges {
  /** A task of the project inserted or updated: its new row. */
  task: (event: 'INSERT' | 'UPDATE', row: ChangedRow) => boolean;
  /** A comment added to a task of the workspace. */
  comment: (taskId: string) => boolean;
  /**
   * A task of the workspace moved between columns, as its history says it (just after the task's
   * row): the columns' ids, null when a status is no longer there.
   */
  status: (taskId: string, from: string | null, to: string | null) => boolean;
}

/** A status entry of `task_history`: the columns a task left and entered (private.task_history_of_tasks). */
type StatusEntry = { from?: { id?: unknown } | null; to?: { id?: unknown } | null };

/** What `task_history` records that changes other cards than its own: parents, links, the trash. */
const STRUCTURE_HISTORY = 'kind=in.(parent,link_added,link_removed,deleted,restored)';

/**
 * The board's tasks, columns and labels, live; returns the other people on the board right now.
 * `known`: the workspace, and the cards and labels the board shows (deletes carry only their key).
 * `apply`: what the board applies itself; without it, every change reloads the board.
 */
export function useLiveBoard(
  projectId: string,
  me: Viewer,
  known: { workspaceId: string; taskIds: string[]; labelIds: string[] },
  apply?: BoardChanges,
): { others: Viewer[]; state: LiveState } {
  const [others, setOthers] = useState<Viewer[]>([]);
  const ids = useRef({ tasks: new Set<string>(), labels: new Set<string>() });
  ids.current = { tasks: new Set(known.taskIds), labels: new Set(known.labelIds) };
  const applying = useRef(apply);
  applying.current = apply;
  // A change the payload cannot carry whole (`errors`: too large) is reloaded.
  const row = (change: { new: ChangedRow; errors?: unknown }) => (change.errors ? null : change.new);
  const state = useLiveChannel(
    `board:${projectId}`,
    {
      private: true,
      presenceKey: me.id,
      onJoined: (channel) => void channel.track({ name: me.name }),
    },
    (channel, changed) =>
      onLabels(channel, known.workspaceId, () => ids.current.labels, changed)
        .on(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'tasks', filter: `project_id=eq.${projectId}` },
          (change) => {
            const task = change.eventType === 'DELETE' ? null : row(change);
            const event = change.eventType === 'INSERT' ? 'INSERT' : 'UPDATE';
            if (!task || !applying.current?.task(event, task)) changed();
          },
        )
        // Comments add to a card's count; one deleted (its key alone) is not followed.
        .on(
          'postgres_changes',
          {
            event: 'INSERT',
            schema: 'public',
            table: 'comments',
            filter: `workspace_id=eq.${known.workspaceId}`,
          },
          (change) => {
            const taskId = row(change)?.task_id;
            if (typeof taskId !== 'string' || !applying.current?.comment(taskId)) changed();
          },
        )
        // A task's move from one column to another, which its row does not say (the row has the new
        // column only): a filtered board needs it for a card it did not draw.
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'task_history', filter: 'kind=eq.status' },
          (change) => {
            const entry = row(change);
            if (!applying.current || entry?.workspace_id !== known.workspaceId) return;
            const { task_id: taskId, data } = entry as { task_id?: unknown; data?: StatusEntry };
            const id = (end: 'from' | 'to') => (typeof data?.[end]?.id === 'string' ? data[end].id : null);
            if (typeof taskId === 'string' && !applying.current.status(taskId, id('from'), id('to')))
              changed();
          },
        )
        // A parent, a link or the trash changes other cards' counts and flags (and a task put in the
        // trash is no longer one its readers see change).
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'task_history', filter: STRUCTURE_HISTORY },
          (change) => {
            if (change.new.workspace_id === known.workspaceId) changed();
          },
        )
        // Deletes carry only the key, so they cannot be filtered by project, and the board draws only
        // a window of each column: a deleted card it does not show still changes a column's count.
        // Any deleted task reloads the board (deletes are rare: admins only).
        .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'tasks' }, changed)
        // The columns themselves: a status added, renamed, recategorized or moved (a deleted one, like
        // a deleted task, carries only its key: any deleted status reloads the board).
        .on(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'project_statuses', filter: `project_id=eq.${projectId}` },
          changed,
        )
        .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'project_statuses' }, changed)
        // Labels put on the workspace's tasks, and its labels changed. A label taken off (a delete,
        // carrying only its key) counts when the card is one the board shows.
        .on(
          'postgres_changes',
          {
            event: 'INSERT',
            schema: 'public',
            table: 'task_labels',
            filter: `workspace_id=eq.${known.workspaceId}`,
          },
          changed,
        )
        .on(
          'postgres_changes',
          { event: 'DELETE', schema: 'public', table: 'task_labels' },
          ifShown(() => ids.current.tasks, 'task_id', changed),
        )
        .on('presence', { event: 'sync' }, () => {
          const state = channel.presenceState<{ name: string }>();
          setOthers(
            Object.entries(state)
              .filter(([id]) => id !== me.id)
              .map(([id, metas]) => ({ id, name: metas[0]?.name ?? 'Someone' }))
              .sort((a, b) => a.name.localeCompare(b.name)),
          );
        }),
  );
  return { others, state };
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
