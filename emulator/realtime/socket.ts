// One websocket and its channels, as realtime's UserSocket and RealtimeChannel handle them
// (supabase/realtime lib/realtime_web/channels/realtime_channel.ex): join with its config and token,
// broadcast, presence, access_token refreshes, leave, heartbeats on `phoenix`, and the token's expiry
// closing the channel with a `system` error.
import { randomUUID } from 'node:crypto';
import type WebSocket from 'ws';
import { checkToken, type Claims } from './tokens.ts';
import { readPolicies, writePolicies, type Extension } from './authorization.ts';
import type { Binding, ChangeSubscriber } from './changes.ts';
import { bindingId, parseSubscriptionParams } from './filters.ts';
import {
  decodeFrame,
  encodeFrame,
  FrameError,
  isUserBroadcast,
  type JsonObject,
  type Message,
  type UserBroadcast,
  type Vsn,
} from './frames.ts';
import type { Hub } from './hub.ts';
import { errorReason } from './codes.ts';

/** realtime re-checks a channel's token this often, or at its expiry if that comes first. */
const CONFIRM_TOKEN_MS = 5 * 60 * 1000;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Ecto's FlexibleBoolean as realtime casts join config: true, "true", 1 and friends. */
function flag(value: unknown): boolean {
  return value === true || value === 'true' || value === 1 || value === '1';
}

export class Channel {
  readonly subTopic: string;
  readonly topicKey: string;
  claims: Claims;
  accessToken: string;
  presenceEnabled: boolean;
  readonly presenceKey: string;
  readonly selfBroadcast: boolean;
  readonly ackBroadcast: boolean;
  /** Private channels: what the RLS policies on realtime.messages allow, once asked. */
  readonly policies = new Map<string, boolean>();
  changes: ChangeSubscriber | undefined;
  private confirmTimer: NodeJS.Timeout | undefined;
  private presencePayload: string | undefined;
  closed = false;

  constructor(
    readonly connection: Connection,
    readonly topic: string,
    readonly joinRef: string | null,
    readonly isPrivate: boolean,
    config: JsonObject,
    claims: Claims,
    accessToken: string,
  ) {
    this.subTopic = topic.slice('realtime:'.length);
    this.topicKey = `${isPrivate ? 'private' : 'public'}:${this.subTopic}`;
    this.claims = claims;
    this.accessToken = accessToken;
    const broadcast = isObject(config.broadcast) ? config.broadcast : {};
    const presence = isObject(config.presence) ? config.presence : {};
    this.selfBroadcast = flag(broadcast.self);
    this.ackBroadcast = flag(broadcast.ack);
    this.presenceEnabled = flag(presence.enabled);
    const key = presence.key;
    this.presenceKey =
      typeof key === 'string' && key !== '' ? key : typeof key === 'number' ? String(key) : randomUUID();
  }

  get hub(): Hub {
    return this.connection.hub;
  }

  push(event: string, payload: JsonObject | UserBroadcast, joinRef: string | null = this.joinRef): void {
    this.connection.send({ joinRef, ref: null, topic: this.topic, event, payload });
  }

  /** A `system` message, as realtime's push_system_message. */
  system(extension: string, status: 'ok' | 'error', message: string): void {
    this.push('system', { extension, status, message, channel: this.subTopic });
  }

  authorization(): { topic: string; claims: Claims; headers: Record<string, string> } {
    return { topic: this.subTopic, claims: this.claims, headers: this.connection.headers };
  }

  async canRead(extension: Extension): Promise<boolean> {
    if (!this.isPrivate) return true;
    const key = `${extension}.read`;
    let allowed = this.policies.get(key);
    if (allowed === undefined) {
      const result = await readPolicies(this.hub.pool, this.authorization(), [extension]);
      allowed = result.get(extension) === true;
      this.policies.set(key, allowed);
    }
    return allowed;
  }

  async canWrite(extension: Extension): Promise<boolean> {
    if (!this.isPrivate) return true;
    const key = `${extension}.write`;
    let allowed = this.policies.get(key);
    if (allowed === undefined) {
      const result = await writePolicies(this.hub.pool, this.authorization(), [extension]);
      allowed = result.get(extension) === true;
      this.policies.set(key, allowed);
    }
    return allowed;
  }

  scheduleTokenCheck(): void {
    clearTimeout(this.confirmTimer);
    const untilExpiry = this.claims.exp * 1000 - Date.now();
    this.confirmTimer = setTimeout(
      () => void this.confirmToken(),
      Math.max(0, Math.min(CONFIRM_TOKEN_MS, untilExpiry)),
    );
    this.confirmTimer.unref();
  }

  private async confirmToken(): Promise<void> {
    if (this.closed) return;
    const check = await checkToken(this.hub.keys, this.accessToken);
    if (!check.ok) {
      this.shutdown(check.message);
      return;
    }
    this.claims = check.claims;
    if (this.changes) this.changes.claims = check.claims;
    this.scheduleTokenCheck();
  }

  /** Ends the channel from the server's side: a `system` error, then `phx_close`. */
  shutdown(message: string): void {
    if (this.closed) return;
    this.system('system', 'error', message);
    this.connection.send({
      joinRef: this.joinRef,
      ref: this.joinRef,
      topic: this.topic,
      event: 'phx_close',
      payload: {},
    });
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.confirmTimer);
    this.connection.forget(this);
    this.hub.leave(this);
  }

  async track(payload: JsonObject): Promise<void> {
    const json = JSON.stringify(payload);
    if (json === this.presencePayload) return;
    this.presenceEnabled = true;
    this.presencePayload = json;
    this.hub.track(this, payload);
  }

  untrack(): void {
    this.presencePayload = undefined;
    this.hub.untrack(this);
  }
}

export class Connection {
  private readonly channels = new Map<string, Channel>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly hub: Hub,
    private readonly ws: WebSocket,
    readonly vsn: Vsn,
    /** The socket's own token: the `apikey` it connected with. */
    private readonly tenantToken: string,
    readonly headers: Record<string, string>,
  ) {
    ws.on('message', (data, isBinary) => {
      const buffer = Array.isArray(data)
        ? Buffer.concat(data)
        : Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data);
      // One message at a time, in order, as a Phoenix channel process handles its mailbox.
      this.queue = this.queue
        .then(() => this.receive(buffer, isBinary))
        .catch((error: unknown) => this.hub.log(`realtime: ${String(error)}`));
    });
    ws.on('close', () => {
      this.queue = this.queue.then(() => {
        for (const channel of [...this.channels.values()]) channel.close();
      });
    });
    ws.on('error', () => ws.terminate());
  }

  send(message: Message): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    const frame = encodeFrame(this.vsn, message);
    if (frame !== undefined) this.ws.send(frame);
  }

  reply(message: Message, status: 'ok' | 'error', response: JsonObject): void {
    this.send({
      joinRef: message.joinRef,
      ref: message.ref,
      topic: message.topic,
      event: 'phx_reply',
      payload: { status, response },
    });
  }

  forget(channel: Channel): void {
    if (this.channels.get(channel.topic) === channel) this.channels.delete(channel.topic);
  }

  terminate(): void {
    this.ws.terminate();
  }

  private async receive(data: Buffer, isBinary: boolean): Promise<void> {
    let message: Message;
    try {
      message = decodeFrame(this.vsn, data, isBinary);
    } catch (error) {
      if (error instanceof FrameError) {
        this.hub.log(`realtime: dropped a frame: ${error.message}`);
        return;
      }
      throw error;
    }
    if (message.topic === 'phoenix' && message.event === 'heartbeat') {
      this.reply(message, 'ok', {});
      return;
    }
    if (message.event === 'phx_join') {
      await this.join(message);
      return;
    }
    const channel = this.channels.get(message.topic);
    if (
      !channel ||
      (message.joinRef !== null && channel.joinRef !== null && message.joinRef !== channel.joinRef)
    ) {
      if (message.event === 'phx_leave') this.reply(message, 'ok', {});
      else this.reply(message, 'error', { reason: 'unmatched topic' });
      return;
    }
    switch (message.event) {
      case 'phx_leave':
        this.reply(message, 'ok', {});
        this.send({
          joinRef: channel.joinRef,
          ref: channel.joinRef,
          topic: channel.topic,
          event: 'phx_close',
          payload: {},
        });
        channel.close();
        return;
      case 'broadcast':
        await this.broadcast(channel, message);
        return;
      case 'presence':
        await this.presence(channel, message);
        return;
      case 'access_token':
        await this.refreshToken(channel, message);
        return;
      default:
        // realtime ignores other events (it logs them at info level).
        return;
    }
  }

  private async join(message: Message): Promise<void> {
    const { topic } = message;
    const payload = isUserBroadcast(message.payload) ? {} : message.payload;
    if (!topic.startsWith('realtime:')) {
      this.reply(message, 'error', { reason: 'unmatched topic' });
      return;
    }
    if (topic === 'realtime:') {
      this.reply(message, 'error', {
        reason: errorReason('TopicNameRequired', 'You must provide a topic name'),
      });
      return;
    }
    // Phoenix closes a channel joined again on the same topic before the new join.
    const previous = this.channels.get(topic);
    if (previous) {
      this.send({ joinRef: previous.joinRef, ref: previous.joinRef, topic, event: 'phx_close', payload: {} });
      previous.close();
    }
    const config = isObject(payload.config) ? payload.config : {};
    const given = typeof payload.access_token === 'string' ? payload.access_token : payload.user_token;
    const accessToken = typeof given === 'string' && !given.startsWith('sb_') ? given : this.tenantToken;
    const check = await checkToken(this.hub.keys, accessToken);
    if (!check.ok) {
      this.reply(message, 'error', { reason: check.reason });
      return;
    }
    const isPrivate = flag(config.private);
    const channel = new Channel(this, topic, message.joinRef, isPrivate, config, check.claims, accessToken);
    if (isPrivate) {
      const extensions: Extension[] = channel.presenceEnabled ? ['broadcast', 'presence'] : ['broadcast'];
      let allowed: Map<Extension, boolean>;
      try {
        allowed = await readPolicies(this.hub.pool, channel.authorization(), extensions);
      } catch (error) {
        this.hub.log(`realtime: policies of ${topic}: ${String(error)}`);
        allowed = new Map();
      }
      for (const [extension, value] of allowed) channel.policies.set(`${extension}.read`, value);
      if (![...allowed.values()].some(Boolean)) {
        this.reply(message, 'error', {
          reason: errorReason(
            'Unauthorized',
            `You do not have permissions to read from this Channel topic: ${channel.subTopic}`,
          ),
        });
        return;
      }
    }

    const requested = Array.isArray(config.postgres_changes)
      ? config.postgres_changes.filter((p): p is JsonObject => isObject(p))
      : [];
    const bindings: Array<{ params: JsonObject; id: number }> = requested.map((params) => ({
      params,
      id: bindingId(params),
    }));

    this.channels.set(topic, channel);
    this.hub.join(channel);
    channel.scheduleTokenCheck();
    this.reply(message, 'ok', { postgres_changes: bindings.map(({ params, id }) => ({ ...params, id })) });

    if (channel.presenceEnabled && (await channel.canRead('presence'))) {
      channel.push('presence_state', this.hub.presenceState(channel));
    }
    if (bindings.length > 0) await this.subscribeChanges(channel, bindings);
  }

  private async subscribeChanges(
    channel: Channel,
    requested: Array<{ params: JsonObject; id: number }>,
  ): Promise<void> {
    const bindings: Binding[] = [];
    for (const { params, id } of requested) {
      const parsed = parseSubscriptionParams(params);
      if (!parsed.ok) {
        channel.system('postgres_changes', 'error', parsed.error);
        return;
      }
      bindings.push({ id, params: parsed.params, entities: new Set() });
    }
    if (channel.changes) this.hub.changes.unsubscribe(channel.changes);
    const subscriber: ChangeSubscriber = {
      claims: channel.claims,
      bindings,
      deliver: (message) => {
        if (!channel.closed) channel.push('postgres_changes', message, null);
      },
    };
    let error: string | undefined;
    try {
      error = await this.hub.changes.subscribe(subscriber);
    } catch (failure) {
      error = String(failure);
    }
    if (channel.closed) {
      this.hub.changes.unsubscribe(subscriber);
      return;
    }
    if (error !== undefined) {
      channel.system('postgres_changes', 'error', error);
      return;
    }
    channel.changes = subscriber;
    channel.system('postgres_changes', 'ok', 'Subscribed to PostgreSQL');
  }

  private async broadcast(channel: Channel, message: Message): Promise<void> {
    if (!(await channel.canWrite('broadcast'))) return;
    this.hub.broadcast(channel.topicKey, message.payload, channel.selfBroadcast ? undefined : channel);
    if (channel.ackBroadcast) this.reply(message, 'ok', {});
  }

  private async presence(channel: Channel, message: Message): Promise<void> {
    const payload = isUserBroadcast(message.payload) ? {} : message.payload;
    const event = typeof payload.event === 'string' ? payload.event.toLowerCase() : undefined;
    if (event === 'track') {
      const tracked = payload.payload ?? {};
      if (!isObject(tracked)) {
        this.reply(message, 'error', { reason: 'Presence track payload must be a map' });
        return;
      }
      if (!(await channel.canWrite('presence'))) {
        this.reply(message, 'error', {});
        return;
      }
      await channel.track(tracked);
    } else if (event === 'untrack') {
      channel.untrack();
    } else if (event !== undefined) {
      this.reply(message, 'error', {});
      return;
    }
    this.reply(message, 'ok', {});
  }

  private async refreshToken(channel: Channel, message: Message): Promise<void> {
    const payload = isUserBroadcast(message.payload) ? {} : message.payload;
    const token = payload.access_token;
    if (typeof token !== 'string' || token.startsWith('sb_') || token === channel.accessToken) return;
    const check = await checkToken(this.hub.keys, token);
    if (!check.ok) {
      channel.shutdown(check.message);
      return;
    }
    const hadRead = [...channel.policies].filter(([k, v]) => k.endsWith('.read') && v).map(([k]) => k);
    channel.accessToken = token;
    channel.claims = check.claims;
    channel.policies.clear();
    if (channel.isPrivate) {
      for (const key of hadRead) {
        const extension: Extension = key.startsWith('presence') ? 'presence' : 'broadcast';
        if (!(await channel.canRead(extension))) {
          channel.shutdown(
            `You no longer have permission to read from this Channel topic: ${channel.subTopic}`,
          );
          return;
        }
      }
    }
    channel.scheduleTokenCheck();
    const subscriber = channel.changes;
    if (subscriber) {
      // realtime subscribes again with the new claims, and says so again.
      subscriber.claims = check.claims;
      this.hub.changes.unsubscribe(subscriber);
      const error = await this.hub.changes.subscribe(subscriber);
      if (error !== undefined) {
        channel.changes = undefined;
        channel.system('postgres_changes', 'error', error);
      } else {
        channel.system('postgres_changes', 'ok', 'Subscribed to PostgreSQL');
      }
    }
  }
}
