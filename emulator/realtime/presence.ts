// Presence as Phoenix.Presence keeps it for realtime: per topic, per key, a list of metas, each the
// tracked payload plus a `phx_ref`. A change is reported as a diff of joins and leaves; re-tracking a
// different payload leaves the old meta and joins a new one that names it in `phx_ref_prev`.
import { randomBytes } from 'node:crypto';

export type Meta = Record<string, unknown> & { phx_ref: string };
export type PresenceState = Record<string, { metas: Meta[] }>;
export interface PresenceDiff {
  joins: PresenceState;
  leaves: PresenceState;
}

interface Entry {
  owner: object;
  key: string;
  payload: Record<string, unknown>;
  meta: Meta;
}

const ref = () => randomBytes(8).toString('base64');

export class PresenceTracker {
  private readonly topics = new Map<string, Entry[]>();

  list(topic: string): PresenceState {
    const state: PresenceState = {};
    for (const entry of this.topics.get(topic) ?? []) {
      (state[entry.key] ??= { metas: [] }).metas.push(entry.meta);
    }
    return state;
  }

  /** Tracks (or updates) what `owner` shows under `key`; no diff when nothing changed. */
  track(
    topic: string,
    owner: object,
    key: string,
    payload: Record<string, unknown>,
  ): PresenceDiff | undefined {
    const entries = this.topics.get(topic) ?? [];
    this.topics.set(topic, entries);
    const existing = entries.find((e) => e.owner === owner && e.key === key);
    if (existing && JSON.stringify(existing.payload) === JSON.stringify(payload)) return undefined;
    const meta: Meta = { ...payload, phx_ref: ref() };
    const diff: PresenceDiff = { joins: {}, leaves: {} };
    if (existing) {
      meta.phx_ref_prev = existing.meta.phx_ref;
      diff.leaves[key] = { metas: [existing.meta] };
      existing.payload = payload;
      existing.meta = meta;
    } else {
      entries.push({ owner, key, payload, meta });
    }
    diff.joins[key] = { metas: [meta] };
    return diff;
  }

  untrack(topic: string, owner: object): PresenceDiff | undefined {
    const entries = this.topics.get(topic);
    if (!entries) return undefined;
    const leaving = entries.filter((e) => e.owner === owner);
    if (leaving.length === 0) return undefined;
    const remaining = entries.filter((e) => e.owner !== owner);
    if (remaining.length === 0) this.topics.delete(topic);
    else this.topics.set(topic, remaining);
    const diff: PresenceDiff = { joins: {}, leaves: {} };
    for (const entry of leaving) (diff.leaves[entry.key] ??= { metas: [] }).metas.push(entry.meta);
    return diff;
  }
}
