// Phoenix channel frames as realtime speaks them. Protocol 1.0.0 is Phoenix's V1 JSON serializer:
// one object per frame, replies without `join_ref`. Protocol 2.0.0 is realtime's V2 serializer
// (supabase/realtime lib/realtime_web/socket/v2_serializer.ex): JSON arrays
// `[join_ref, ref, topic, event, payload]`, plus binary frames for user broadcasts — kind 3 from the
// client (realtime-js src/lib/serializer.ts), kind 4 to it.

export type Vsn = '1.0.0' | '2.0.0';

export type JsonObject = { [key: string]: unknown };

/** A user broadcast whose payload travels as bytes: JSON text or opaque binary. */
export interface UserBroadcast {
  event: string;
  encoding: 'json' | 'binary';
  payload: Buffer;
  metadata?: JsonObject;
}

export interface Message {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: JsonObject | UserBroadcast;
}

export function isUserBroadcast(payload: Message['payload']): payload is UserBroadcast {
  return Buffer.isBuffer(payload.payload) && (payload.encoding === 'json' || payload.encoding === 'binary');
}

const USER_BROADCAST_PUSH = 3;
const USER_BROADCAST = 4;

export class FrameError extends Error {}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return null;
}

/** Decodes one frame from the client. Text frames are JSON; binary ones user broadcast pushes. */
export function decodeFrame(vsn: Vsn, data: Buffer, isBinary: boolean): Message {
  if (isBinary) {
    if (vsn !== '2.0.0') throw new FrameError('binary frames need protocol 2.0.0');
    return decodeUserBroadcastPush(data);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch {
    throw new FrameError('frame is not JSON');
  }
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length < 5) throw new FrameError('expected V2 array');
    const [joinRef, ref, topic, event, payload] = parsed as unknown[];
    if (typeof topic !== 'string' || typeof event !== 'string') throw new FrameError('expected V2 array');
    return {
      joinRef: refOf(joinRef),
      ref: refOf(ref),
      topic,
      event,
      payload: isObject(payload) ? payload : {},
    };
  }
  if (!isObject(parsed) || typeof parsed.topic !== 'string' || typeof parsed.event !== 'string') {
    throw new FrameError('expected V1 object');
  }
  return {
    joinRef: refOf(parsed.join_ref),
    ref: refOf(parsed.ref),
    topic: parsed.topic,
    event: parsed.event,
    payload: isObject(parsed.payload) ? parsed.payload : {},
  };
}

function decodeUserBroadcastPush(data: Buffer): Message {
  if (data.length < 7 || data[0] !== USER_BROADCAST_PUSH) throw new FrameError('unknown binary frame');
  const sizes = [data[1], data[2], data[3], data[4], data[5]].map((n) => n ?? 0);
  const encoding = data[6] === 0 ? 'binary' : 'json';
  let offset = 7;
  const parts = sizes.map((size) => {
    const part = data.subarray(offset, offset + size);
    offset += size;
    return part.toString('utf8');
  });
  if (offset > data.length) throw new FrameError('truncated binary frame');
  const [joinRef = '', ref = '', topic = '', event = '', metadata = ''] = parts;
  let meta: JsonObject | undefined;
  if (metadata !== '') {
    try {
      const parsed: unknown = JSON.parse(metadata);
      if (isObject(parsed)) meta = parsed;
    } catch {
      throw new FrameError('metadata is not JSON');
    }
  }
  return {
    joinRef: joinRef === '' ? null : joinRef,
    ref: ref === '' ? null : ref,
    topic,
    event: 'broadcast',
    payload: { event, encoding, payload: Buffer.from(data.subarray(offset)), metadata: meta },
  };
}

/**
 * A user broadcast as JSON, the shape V1 clients and every JSON-born broadcast get. A binary payload
 * has no JSON form: V1 sockets do not receive it (realtime's UserBroadcast.convert_to_json_broadcast).
 */
export function userBroadcastAsJson(broadcast: UserBroadcast): JsonObject | undefined {
  if (broadcast.encoding !== 'json') return undefined;
  const out: JsonObject = {
    event: broadcast.event,
    payload: JSON.parse(broadcast.payload.toString('utf8')) as unknown,
    type: 'broadcast',
  };
  if (broadcast.metadata) out.meta = broadcast.metadata;
  return out;
}

/** Payloads sent to many channels at once (a change, a broadcast) are serialized once. */
const serialized = new WeakMap<object, string>();
function json(payload: JsonObject): string {
  let text = serialized.get(payload);
  if (text === undefined) {
    text = JSON.stringify(payload);
    serialized.set(payload, text);
  }
  return text;
}

/** Encodes a frame for a client; `undefined` when the message has no form in that protocol. */
export function encodeFrame(vsn: Vsn, message: Message): string | Buffer | undefined {
  const { payload } = message;
  if (isUserBroadcast(payload)) {
    if (vsn === '2.0.0') return encodeUserBroadcast(message.topic, payload);
    const json = userBroadcastAsJson(payload);
    return json && JSON.stringify({ topic: message.topic, event: 'broadcast', payload: json, ref: null });
  }
  const head = (value: unknown) => JSON.stringify(value);
  if (vsn === '2.0.0') {
    return `[${head(message.joinRef)},${head(message.ref)},${head(message.topic)},${head(message.event)},${json(payload)}]`;
  }
  return `{"topic":${head(message.topic)},"event":${head(message.event)},"payload":${json(payload)},"ref":${head(message.ref)}}`;
}

function encodeUserBroadcast(topic: string, broadcast: UserBroadcast): Buffer {
  const topicBytes = Buffer.from(topic, 'utf8');
  const eventBytes = Buffer.from(broadcast.event, 'utf8');
  const metadata = broadcast.metadata
    ? Buffer.from(JSON.stringify(broadcast.metadata), 'utf8')
    : Buffer.alloc(0);
  if (topicBytes.length > 255 || eventBytes.length > 255 || metadata.length > 255) {
    throw new FrameError('topic, event or metadata longer than 255 bytes');
  }
  const header = Buffer.from([
    USER_BROADCAST,
    topicBytes.length,
    eventBytes.length,
    metadata.length,
    broadcast.encoding === 'json' ? 1 : 0,
  ]);
  return Buffer.concat([header, topicBytes, eventBytes, metadata, broadcast.payload]);
}
