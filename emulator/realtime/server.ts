// The realtime service behind the gateway at /realtime/v1: the Phoenix websocket at `/websocket`
// and the broadcast API at `/api/broadcast` (supabase/realtime lib/realtime_web/router.ex), over one
// replication stream of the `supabase_realtime` publication shared by every subscriber.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type pg from 'pg';
import { WebSocketServer } from 'ws';
import type { SigningKeys } from '../keys.ts';
import { BodyTooLarge, bearerToken, header, readBody, sendJson } from '../lib/http.ts';
import { writePolicies } from './authorization.ts';
import { ChangeFeed, VISIBLE_SQL } from './changes.ts';
import type { JsonObject, UserBroadcast, Vsn } from './frames.ts';
import { Hub } from './hub.ts';
import { Replication } from './replication.ts';
import { Connection } from './socket.ts';
import { checkToken, type Claims } from './tokens.ts';

const PUBLICATION = 'supabase_realtime';
/** realtime's default `max_payload_size_in_kb` is 3000; the API reads bodies up to that. */
const MAX_BODY = 3000 * 1024;

/**
 * What every connection of realtime's pool runs before its first query: the pool's `onConnect`,
 * which pg-pool awaits before it hands the connection out. (Run from the pool's 'connect' event
 * instead, it would sit queued before the caller's query, which pg deprecates.)
 */
export async function prepareRealtimeConnection(client: pg.ClientBase): Promise<void> {
  await client.query(VISIBLE_SQL);
}

export interface RealtimeOptions {
  /**
   * Connections that may `set role` to the API roles (realtime logs in as supabase_admin), made with
   * prepareRealtimeConnection as the pool's `onConnect`.
   */
  pool: pg.Pool;
  /** A login with the REPLICATION attribute, for the logical replication stream. */
  replicationUrl: string;
  /**
   * The replication slot's name: one per backend (data directory), so a backend that was killed
   * finds and drops its own leftover slot on the next start. Random when not given.
   */
  slot?: string;
  keys: SigningKeys;
  log: (line: string) => void;
}

export interface Realtime {
  handle(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<void>;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, path: string, query: URLSearchParams): void;
  stop(): Promise<void>;
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The HTTP answers Phoenix and realtime's UserSocket give before a websocket exists. */
function refuseUpgrade(socket: Duplex, status: number, body: JsonObject): void {
  const text = JSON.stringify(body);
  const reason = status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

const CONNECT_ERRORS: Record<string, string> = {
  'The token provided is not a valid JWT': 'The token provided is not a valid JWT',
  'Failed to validate JWT signature': 'Failed to validate JWT signature',
  'Fields `role` and `exp` are required in JWT': 'Fields `role` and `exp` are required in JWT',
};

export async function createRealtime(options: RealtimeOptions): Promise<Realtime> {
  const { pool, keys, log } = options;
  const changes = new ChangeFeed(pool, PUBLICATION, log);
  const connections = new Set<Connection>();

  const hub = new Hub(keys, pool, changes, log);

  const slot = options.slot ?? `supabase_realtime_replication_slot_${randomBytes(4).toString('hex')}`;
  const replication = new Replication({
    url: options.replicationUrl,
    publication: PUBLICATION,
    slot,
    onMessage: (message) => changes.handle(message),
    log,
  });
  await replication.start();

  const wss = new WebSocketServer({ noServer: true });

  function upgrade(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    path: string,
    query: URLSearchParams,
  ): void {
    if (path !== '/websocket' && path !== '/websocket/') {
      refuseUpgrade(socket, 404, { message: 'no Route matched with those values' });
      return;
    }
    const vsn = query.get('vsn') ?? '1.0.0';
    if (vsn !== '1.0.0' && vsn !== '2.0.0') {
      refuseUpgrade(socket, 403, {
        error: `The client's requested transport version "${vsn}" does not match server's version requirements`,
      });
      return;
    }
    const token = header(req, 'x-api-key') ?? query.get('apikey') ?? undefined;
    if (!token) {
      refuseUpgrade(socket, 401, { error: 'API key is missing' });
      return;
    }
    void checkToken(keys, token).then((check) => {
      if (!check.ok) {
        const error =
          check.kind === 'expired' ? 'Token has expired' : (CONNECT_ERRORS[check.message] ?? check.message);
        refuseUpgrade(socket, 401, { error });
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const connection = new Connection(hub, ws, vsn satisfies Vsn, token, headersOf(req));
        connections.add(connection);
        ws.on('close', () => connections.delete(connection));
      });
    });
  }

  async function authorize(req: IncomingMessage): Promise<Claims | undefined> {
    const token = bearerToken(req) ?? header(req, 'apikey');
    if (!token) return undefined;
    const check = await checkToken(keys, token);
    return check.ok ? check.claims : undefined;
  }

  async function mayWrite(claims: Claims, req: IncomingMessage, topic: string): Promise<boolean> {
    const allowed = await writePolicies(pool, { topic, claims, headers: headersOf(req) }, ['broadcast']);
    return allowed.get('broadcast') === true;
  }

  /** `POST /api/broadcast`: a batch of JSON messages (realtime's BatchBroadcast). */
  async function batchBroadcast(req: IncomingMessage, res: ServerResponse, claims: Claims): Promise<void> {
    let body: unknown;
    try {
      body = JSON.parse((await readBody(req, MAX_BODY)).toString('utf8') || '{}');
    } catch (error) {
      if (error instanceof BodyTooLarge) throw error;
      sendJson(res, 400, { message: 'Could not parse request body as JSON' });
      return;
    }
    const messages =
      typeof body === 'object' && body !== null && 'messages' in body ? body.messages : undefined;
    if (!Array.isArray(messages) || messages.length === 0) {
      sendJson(res, 422, { errors: { messages: ["can't be blank"] } });
      return;
    }
    const problems = messages.map((m: unknown) => {
      const errors: Record<string, string[]> = {};
      const message = typeof m === 'object' && m !== null ? (m as Record<string, unknown>) : {};
      for (const field of ['topic', 'event', 'payload']) {
        if (message[field] === undefined || message[field] === null) errors[field] = ["can't be blank"];
      }
      if (
        message.payload !== undefined &&
        (typeof message.payload !== 'object' || Array.isArray(message.payload))
      ) {
        errors.payload = ['is invalid'];
      }
      return errors;
    });
    if (problems.some((p) => Object.keys(p).length > 0)) {
      sendJson(res, 422, { errors: { messages: problems } });
      return;
    }
    const allowedTopics = new Map<string, boolean>();
    for (const raw of messages as Array<Record<string, unknown>>) {
      const topic = String(raw.topic);
      const isPrivate = raw.private === true || raw.private === 'true';
      if (isPrivate) {
        let allowed = allowedTopics.get(topic);
        if (allowed === undefined) {
          allowed = await mayWrite(claims, req, topic).catch(() => false);
          allowedTopics.set(topic, allowed);
        }
        // realtime accepts the batch and drops what the caller may not send.
        if (!allowed) continue;
      }
      const payload: JsonObject = { payload: raw.payload, event: String(raw.event), type: 'broadcast' };
      if (typeof raw.id === 'string') payload.meta = { id: raw.id };
      hub.broadcast(`${isPrivate ? 'private' : 'public'}:${topic}`, payload);
    }
    res.writeHead(202, { 'Content-Length': '0' });
    res.end();
  }

  /** `POST /api/broadcast/{topic}/events/{event}`: one message, JSON or binary (`httpSend`). */
  async function singleBroadcast(
    req: IncomingMessage,
    res: ServerResponse,
    claims: Claims,
    topic: string,
    event: string,
    query: URLSearchParams,
  ): Promise<void> {
    const type = (header(req, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json' && type !== 'application/octet-stream') {
      sendJson(res, 415, { error: 'Unsupported Media Type' });
      return;
    }
    const body = await readBody(req, MAX_BODY);
    let payload: Buffer = body;
    if (type === 'application/json') {
      try {
        payload = Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8') || 'null')));
      } catch {
        sendJson(res, 400, { message: 'Could not parse request body as JSON' });
        return;
      }
      if (payload.toString() === 'null') {
        sendJson(res, 422, { errors: { payload: ["can't be blank"] } });
        return;
      }
    }
    const isPrivate = query.get('private') === 'true';
    if (isPrivate && !(await mayWrite(claims, req, topic))) {
      sendJson(res, 403, { message: 'Unauthorized' });
      return;
    }
    const broadcast: UserBroadcast = {
      event,
      encoding: type === 'application/json' ? 'json' : 'binary',
      payload,
    };
    hub.broadcast(`${isPrivate ? 'private' : 'public'}:${topic}`, broadcast);
    res.writeHead(202, { 'Content-Length': '0' });
    res.end();
  }

  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
  ): Promise<void> {
    const single = /^\/api\/broadcast\/([^/]+)\/events\/([^/]+)\/?$/.exec(path);
    const batch = /^\/api\/broadcast\/?$/.test(path);
    if (req.method !== 'POST' || (!single && !batch)) {
      sendJson(res, 404, { message: 'no Route matched with those values' });
      return;
    }
    const claims = await authorize(req);
    if (!claims) {
      sendJson(res, 401, { message: 'Unauthorized' });
      return;
    }
    try {
      if (single) {
        await singleBroadcast(
          req,
          res,
          claims,
          decodeURIComponent(single[1] ?? ''),
          decodeURIComponent(single[2] ?? ''),
          query,
        );
      } else {
        await batchBroadcast(req, res, claims);
      }
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        sendJson(res, 413, { message: 'Payload too large' });
        return;
      }
      throw error;
    }
  }

  let stopped: Promise<void> | undefined;
  function stop(): Promise<void> {
    stopped ??= (async () => {
      for (const connection of connections) connection.terminate();
      wss.close();
      await replication.stop();
    })();
    return stopped;
  }

  return { handle, upgrade, stop };
}
