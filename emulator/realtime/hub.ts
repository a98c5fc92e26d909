// What the channels of every connection share: who is on which topic, presence, the change feed,
// and the fan-out of broadcasts (realtime's Phoenix PubSub and Presence). Connections (socket.ts)
// use it and the server (server.ts) makes it; it depends on neither.
import type pg from 'pg';
import type { SigningKeys } from '../keys.ts';
import type { ChangeFeed, ChangeSubscriber } from './changes.ts';
import type { JsonObject, UserBroadcast } from './frames.ts';
import type { Extension } from './authorization.ts';
import { PresenceTracker, type PresenceDiff, type PresenceState } from './presence.ts';

/** A joined channel, as the hub sees it. */
export interface HubMember {
  readonly topicKey: string;
  readonly isPrivate: boolean;
  readonly presenceKey: string;
  /** The RLS answers of the join (`broadcast.read`, …). */
  readonly policies: Map<string, boolean>;
  readonly changes: ChangeSubscriber | undefined;
  canRead(extension: Extension): Promise<boolean>;
  push(event: string, payload: JsonObject | UserBroadcast, joinRef: string | null): void;
}

export class Hub {
  private readonly topics = new Map<string, Set<HubMember>>();
  private readonly presence = new PresenceTracker();

  constructor(
    readonly keys: SigningKeys,
    readonly pool: pg.Pool,
    readonly changes: ChangeFeed,
    readonly log: (line: string) => void,
  ) {}

  join(member: HubMember): void {
    let set = this.topics.get(member.topicKey);
    if (!set) this.topics.set(member.topicKey, (set = new Set()));
    set.add(member);
  }

  leave(member: HubMember): void {
    this.topics.get(member.topicKey)?.delete(member);
    if (this.topics.get(member.topicKey)?.size === 0) this.topics.delete(member.topicKey);
    if (member.changes) this.changes.unsubscribe(member.changes);
    void this.sendDiff(member.topicKey, this.presence.untrack(member.topicKey, member));
  }

  broadcast(topicKey: string, payload: JsonObject | UserBroadcast, except?: HubMember): void {
    for (const member of this.members(topicKey)) {
      if (member === except) continue;
      if (member.isPrivate && member.policies.get('broadcast.read') !== true) continue;
      member.push('broadcast', payload, null);
    }
  }

  track(member: HubMember, payload: JsonObject): void {
    void this.sendDiff(
      member.topicKey,
      this.presence.track(member.topicKey, member, member.presenceKey, payload),
    );
  }

  untrack(member: HubMember): void {
    void this.sendDiff(member.topicKey, this.presence.untrack(member.topicKey, member));
  }

  presenceState(member: HubMember): PresenceState {
    return this.presence.list(member.topicKey);
  }

  private members(topicKey: string): HubMember[] {
    return [...(this.topics.get(topicKey) ?? [])];
  }

  private async sendDiff(topicKey: string, diff: PresenceDiff | undefined): Promise<void> {
    if (!diff) return;
    for (const member of this.members(topicKey)) {
      if (!member.isPrivate || (await member.canRead('presence').catch(() => false))) {
        member.push('presence_diff', { ...diff }, null);
      }
    }
  }
}
