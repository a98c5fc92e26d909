// The gateway's fast path: the one kind of request that dominates its traffic, a body-less REST read,
// parsed on the raw socket and answered without node:http's request and response objects (about
// half of the gateway's CPU per read). It takes only a narrow, well-understood shape; everything
// else — another method or service, a body, an upgrade, anything unusual or malformed, a request
// cut across TCP reads, pipelined requests — is handed to node:http untouched: the bytes read are
// put back on the socket and node:http's own connection handler takes the socket over, for good.
// So node:http's parser stays the judge of everything the fast path does not fully understand, and
// the fast path's answers are written the way node:http writes them (same status line, headers,
// keep-alive and framing), which gateway.fast-path.contract.test.ts checks byte for byte.
import http, { STATUS_CODES } from 'node:http';
import type net from 'node:net';
import type { ResponseSink } from './upstream.ts';

/** A request the fast path may serve: a complete, single, body-less GET or HEAD. */
export interface FastRequest {
  method: 'GET' | 'HEAD';
  /** The request target as sent (origin form): path and query string. */
  target: string;
  /** The headers as a flat [name, value, …] list, as node:http's `rawHeaders` has them. */
  rawHeaders: string[];
  /** The `apikey` header's value (it came at most once), if any. */
  apikey: string | undefined;
  /** Whether the connection stays open after the answer (HTTP/1.1 without `Connection: close`). */
  keepAlive: boolean;
}

/**
 * Serves `request` by writing to `res` and returns true, or returns false (having written nothing)
 * to hand the request to node:http.
 */
export type FastRoute = (request: FastRequest, res: FastResponse) => boolean;

/** Heads longer than this go to node:http (whose limit, `maxHeaderSize`, is 16 KiB). */
const MAX_HEAD = 8192;
const HEAD_END = Buffer.from('\r\n\r\n');
/** Characters a head line may hold here: visible ASCII, space and tab. Anything else goes to node:http. */
const LINE_OK = /^[\t\x20-\x7e]*$/;
/** A header name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/**
 * A request target of RFC 3986 characters only (what fetch and supabase-js send, percent-encoding the
 * rest). A fragment, quotes, braces and the like are left to node:http's parser to judge.
 */
const TARGET_OK = /^\/[A-Za-z0-9\-._~:/?[\]@!$&'()*+,;=%]*$/;
/** Header values node:http refuses to write (its checkInvalidHeaderChar). */
const INVALID_HEADER_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * Parses `data` as exactly one request head of the shape the fast path takes, with nothing after it.
 * Returns undefined for anything else, which then goes to node:http as it came.
 */
export function parseFastRequest(data: Buffer): FastRequest | undefined {
  if (data.length > MAX_HEAD) return undefined;
  const end = data.indexOf(HEAD_END);
  // Incomplete, or more than a head (a body, or pipelined requests): node:http's.
  if (end === -1 || end + 4 !== data.length) return undefined;
  const lines = data.toString('latin1', 0, end).split('\r\n');
  const requestLine = lines[0] as string;
  let method: 'GET' | 'HEAD';
  if (requestLine.startsWith('GET ')) method = 'GET';
  else if (requestLine.startsWith('HEAD ')) method = 'HEAD';
  else return undefined;
  if (!requestLine.endsWith(' HTTP/1.1')) return undefined;
  const target = requestLine.slice(method.length + 1, -9);
  if (!TARGET_OK.test(target)) return undefined;

  const rawHeaders: string[] = [];
  let hosts = 0;
  let apikeys = 0;
  let apikey: string | undefined;
  let connections = 0;
  let keepAlive = true;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    // A bare CR or LF, a control character, a byte above 0x7f, or an obsolete line folding.
    if (!LINE_OK.test(line) || line.charCodeAt(0) === 0x20 || line.charCodeAt(0) === 0x09) return undefined;
    const colon = line.indexOf(':');
    if (colon <= 0) return undefined;
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) return undefined;
    const value = line.slice(colon + 1).trim(); // only spaces and tabs can be there to trim
    switch (name.toLowerCase()) {
      case 'host':
        hosts++;
        break;
      case 'apikey':
        apikeys++;
        apikey = value;
        break;
      case 'connection':
        connections++;
        for (const token of value.split(',')) {
          const option = token.trim().toLowerCase();
          if (option === 'close') keepAlive = false;
          else if (option !== 'keep-alive') return undefined; // `upgrade`, or anything else
        }
        break;
      // A body, a protocol switch or an expectation: node:http's.
      case 'content-length':
      case 'transfer-encoding':
      case 'upgrade':
      case 'expect':
        return undefined;
    }
    rawHeaders.push(name, value);
  }
  // node:http answers 400 to an HTTP/1.1 request without a host; repeated fields that matter are
  // joined or chosen by its rules, which are not repeated here.
  if (hosts !== 1 || apikeys > 1 || connections > 1) return undefined;
  return { method, target, rawHeaders, apikey, keepAlive };
}

let dateCache = '';
let dateValidUntil = 0;
/** The Date header's value, as node:http makes it (computed at most once a second). */
function utcDate(): string {
  const now = Date.now();
  if (now >= dateValidUntil) {
    dateCache = new Date(now).toUTCString();
    dateValidUntil = now - (now % 1000) + 1000;
  }
  return dateCache;
}

const CRLF = Buffer.from('\r\n');
const EMPTY = Buffer.alloc(0);
const LAST_CHUNK = Buffer.from('0\r\n\r\n');

/**
 * The answer to one fast-path request, written to the socket as node:http's ServerResponse writes it
 * (for the headers the gateway passes: never `Connection`, `Transfer-Encoding`, `Keep-Alive` or
 * `Trailer`, which it leaves out of what it forwards): the status line with node's reason phrase,
 * the headers in order, `Date` unless given, `Connection` and `Keep-Alive`, then `Content-Length` as
 * given or chunked framing.
 */
export class FastResponse implements ResponseSink {
  headersSent = false;
  private head: string | null = null;
  private hasBody: boolean;
  private chunked = false;
  private corked = false;
  private done = false;

  constructor(
    private readonly socket: net.Socket,
    method: string,
    /** Whether the connection stays open after this answer. */
    readonly keepAlive: boolean,
    private readonly keepAliveTimeout: number,
    private readonly onDone: (response: FastResponse) => void,
  ) {
    this.hasBody = method !== 'HEAD';
  }

  /** Whether the client is gone, or the connection closed: nothing more can be written. */
  get destroyed(): boolean {
    return this.socket.destroyed || this.socket.writableEnded;
  }

  /** Throws, like node:http, on a status or header it would refuse; nothing is written then. */
  writeHead(status: number, headers: string[]): void {
    if (this.headersSent) throw new Error('headers already sent');
    if (!Number.isInteger(status) || status < 100 || status > 999) throw new RangeError('bad status');
    let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\n`;
    let date = false;
    let length = false;
    for (let i = 0; i < headers.length; i += 2) {
      const name = headers[i] as string;
      const value = headers[i + 1];
      if (!TOKEN.test(name) || value === undefined || INVALID_HEADER_CHAR.test(value)) {
        throw new TypeError(`invalid header ${name}`);
      }
      head += `${name}: ${value}\r\n`;
      const lower = name.length === 4 || name.length === 14 ? name.toLowerCase() : '';
      if (lower === 'date') date = true;
      else if (lower === 'content-length') length = true;
    }
    if (!date) head += `Date: ${utcDate()}\r\n`;
    if (this.keepAlive) {
      head += 'Connection: keep-alive\r\n';
      if (this.keepAliveTimeout)
        head += `Keep-Alive: timeout=${Math.floor(this.keepAliveTimeout / 1000)}\r\n`;
    } else {
      head += 'Connection: close\r\n';
    }
    if (status === 204 || status === 304 || status < 200) this.hasBody = false;
    if (!length && this.hasBody) {
      head += 'Transfer-Encoding: chunked\r\n';
      this.chunked = true;
    }
    this.head = head + '\r\n';
    this.headersSent = true;
  }

  write(chunk: Buffer): boolean {
    if (this.done || this.destroyed) return true;
    this.cork();
    let ok = true;
    if (this.head !== null) {
      ok = this.socket.write(this.head, 'latin1');
      this.head = null;
    }
    if (!this.hasBody || chunk.length === 0) return ok;
    if (this.chunked) {
      this.socket.write(`${chunk.length.toString(16)}\r\n`, 'latin1');
      this.socket.write(chunk);
      return this.socket.write(CRLF);
    }
    return this.socket.write(chunk);
  }

  end(chunk?: Buffer): void {
    if (this.done) return;
    if (!this.destroyed) {
      this.write(chunk ?? EMPTY);
      if (this.chunked && this.hasBody) this.socket.write(LAST_CHUNK);
      this.uncork();
    }
    this.done = true;
    this.onDone(this);
  }

  destroy(): void {
    this.socket.destroy();
  }

  once(event: 'drain' | 'close', listener: () => void): void {
    this.socket.once(event, listener);
  }

  removeListener(event: 'drain' | 'close', listener: () => void): void {
    this.socket.removeListener(event, listener);
  }

  /** Like node:http, the pieces written in one tick go out in one system call. */
  private cork(): void {
    if (this.corked) return;
    this.corked = true;
    this.socket.cork();
    process.nextTick(() => this.uncork());
  }

  private uncork(): void {
    if (!this.corked) return;
    this.corked = false;
    this.socket.uncork();
  }
}

/** One client connection while the fast path has it. */
class FastConnection {
  /** The answer being written, if a request is in progress. */
  private response: FastResponse | null = null;
  /** Bytes that came while a request was in progress, handled once it is answered. */
  private stash: Buffer | null = null;

  constructor(
    private readonly server: FastPathServer,
    readonly socket: net.Socket,
  ) {
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('error', this.onError);
    socket.on('close', this.onClose);
    socket.on('timeout', this.onTimeout);
    // Idle connections close as node:http closes idle keep-alive ones.
    if (server.keepAliveTimeout) socket.setTimeout(server.keepAliveTimeout + 1000);
  }

  get idle(): boolean {
    return this.response === null;
  }

  private readonly onData = (data: Buffer) => {
    if (this.response) {
      // The client did not wait for the answer (a pipelined request, or a body it should not have
      // sent): read no more until the answer is out, then look at what came.
      this.stash = this.stash ? Buffer.concat([this.stash, data]) : data;
      this.socket.pause();
      return;
    }
    this.handle(data);
  };

  private handle(data: Buffer): void {
    const request = this.server.fastRoute ? parseFastRequest(data) : undefined;
    if (!request || this.server.maxRequestsPerSocket) {
      this.handOver(data);
      return;
    }
    const response = new FastResponse(
      this.socket,
      request.method,
      request.keepAlive && this.server.listening,
      this.server.keepAliveTimeout,
      this.onAnswered,
    );
    this.response = response;
    let served: boolean;
    try {
      served = this.server.fastRoute!(request, response);
    } catch {
      // A bug in the route: nothing was sent on, so node:http may still answer the request.
      served = false;
    }
    if (!served && this.response === response && !response.headersSent) {
      this.response = null;
      this.handOver(data);
    }
  }

  private readonly onAnswered = (response: FastResponse) => {
    if (this.response !== response) return;
    this.response = null;
    if (this.socket.destroyed || !this.server.owns(this)) return;
    if (!response.keepAlive) {
      this.server.forget(this);
      this.socket.destroySoon();
      return;
    }
    const stash = this.stash;
    this.stash = null;
    if (stash) this.handle(stash);
    if (!this.socket.destroyed && this.socket.isPaused() && this.server.owns(this)) this.socket.resume();
  };

  /**
   * The client ended its side: the connection ends, as node:http ends it (the gateway does not keep
   * half-open connections), and an answer still to come is not sent.
   */
  private readonly onEnd = () => {
    this.server.forget(this);
    this.socket.end();
  };

  private readonly onError = () => {
    this.socket.destroy();
  };

  private readonly onClose = () => {
    this.server.forget(this);
  };

  private readonly onTimeout = () => {
    // While waiting for PostgREST the connection is not idle; the next write restarts the timer.
    if (!this.response) this.socket.destroy();
  };

  /** Gives the socket to node:http with `data` back in front of anything unread. */
  private handOver(data: Buffer): void {
    const socket = this.socket;
    this.server.forget(this);
    // Paused first, so that nothing read is emitted while nobody listens.
    socket.pause();
    socket.removeListener('data', this.onData);
    socket.removeListener('end', this.onEnd);
    socket.removeListener('error', this.onError);
    socket.removeListener('close', this.onClose);
    socket.removeListener('timeout', this.onTimeout);
    socket.setTimeout(0);
    socket.unshift(data);
    this.server.httpConnection(socket);
    // node:http reads the socket from here; what waits in its buffer (`data` first) goes to it first.
    socket.resume();
  }
}

/**
 * An http.Server whose connections the fast path sees first: each connection starts on the fast
 * path and moves to node:http (its own connection handler, unchanged) at the first request the fast
 * path does not take. Without a route it is a plain http.Server.
 */
export class FastPathServer extends http.Server {
  readonly fastRoute: FastRoute | undefined;
  private readonly connectionListener: ((socket: net.Socket) => void) | undefined;
  private readonly fast = new Set<FastConnection>();

  constructor(fastRoute: FastRoute | undefined, requestListener: http.RequestListener) {
    super(requestListener);
    // node:http handles a connection with the one 'connection' listener its constructor adds; the
    // fast path takes that place and calls it for the connections it hands over. Should that ever
    // not be so, the server stays a plain http.Server.
    const listeners = this.listeners('connection');
    const original = listeners[0];
    if (fastRoute && listeners.length === 1 && typeof original === 'function') {
      this.fastRoute = fastRoute;
      this.connectionListener = original as (socket: net.Socket) => void;
      this.removeListener('connection', this.connectionListener);
      this.on('connection', (socket: net.Socket) => this.fast.add(new FastConnection(this, socket)));
    }
  }

  /** node:http takes `socket` over. */
  httpConnection(socket: net.Socket): void {
    this.connectionListener?.call(this, socket);
  }

  owns(connection: FastConnection): boolean {
    return this.fast.has(connection);
  }

  forget(connection: FastConnection): void {
    this.fast.delete(connection);
  }

  override closeIdleConnections(): void {
    for (const connection of this.fast) {
      if (connection.idle) connection.socket.destroy();
    }
    super.closeIdleConnections();
  }

  override closeAllConnections(): void {
    for (const connection of this.fast) connection.socket.destroy();
    super.closeAllConnections();
  }
}
