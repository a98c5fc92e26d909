// The gateway's fast path: the kinds of request that dominate its traffic, a REST read and a REST
// call or write with a small JSON body (every page's RPC), parsed on the raw socket and answered
// without node:http's request and response objects (about half of the gateway's CPU per request). It
// takes only a narrow, well-understood shape; everything else — another method or service, a body
// framed any other way or longer than the read it came in, an upgrade, anything unusual or
// malformed, a request cut across TCP reads, pipelined requests — is handed to node:http untouched:
// the bytes read are put back on the socket and node:http's own connection handler takes the socket
// over, for good. So node:http's parser stays the judge of everything the fast path does not fully
// understand, and the fast path's answers are written the way node:http writes them (same status
// line, headers, keep-alive and framing), which gateway.fast-path.contract.test.ts checks byte for
// byte.
import http, { STATUS_CODES } from 'node:http';
import type net from 'node:net';
import type { ResponseSink } from './upstream.ts';

/**
 * A request the fast path may serve: a complete, single GET or HEAD without a body, or POST or PATCH
 * whose whole body came with its head, framed by one Content-Length.
 */
export interface FastRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH';
  /** The request target as sent (origin form): path and query string. */
  target: string;
  /**
   * The header lines as they came, each led by CRLF (`\r\nName: value…`): checked to be well formed,
   * and passed on without being taken apart.
   */
  headerLines: string;
  /** The `apikey` header's value (it came at most once), if any. */
  apikey: string | undefined;
  /** Whether the connection stays open after the answer (HTTP/1.1 without `Connection: close`). */
  keepAlive: boolean;
  /** A POST's or PATCH's body, exactly as many bytes as its Content-Length says (possibly none). */
  body: Buffer | undefined;
}

/**
 * Serves `request` by writing to `res` and returns true, or returns false (having written nothing)
 * to hand the request to node:http.
 */
export type FastRoute = (request: FastRequest, res: FastResponse) => boolean;

/** Heads longer than this go to node:http (whose limit, `maxHeaderSize`, is 16 KiB). */
const MAX_HEAD = 8192;
/** Bodies longer than this go to node:http, which streams them. */
const MAX_BODY = 16 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');
/**
 * The whole head of a request the fast path takes, checked in one pass:
 * - the request line: GET, HEAD, POST or PATCH, a target of RFC 3986 characters only (what fetch
 *   and supabase-js send, percent-encoding the rest; a fragment, quotes, braces and the like are left
 *   to node:http's parser to judge), and HTTP/1.1;
 * - header lines of a name (an RFC 9110 token, so no line starts with a space or tab: no obsolete
 *   line folding) and a value of visible ASCII, space and tab (no bare CR or LF, no control
 *   character, no byte above 0x7f).
 * Anything else goes to node:http.
 */
const REQUEST_HEAD =
  /^(GET|HEAD|POST|PATCH) (\/[A-Za-z0-9\-._~:/?[\]@!$&'()*+,;=%]*) HTTP\/1\.1((?:\r\n[!#$%&'*+\-.^_`|~0-9A-Za-z]+:[\t\x20-\x7e]*)*)$/;
/** The header lines the fast path looks into: the name, and the value without surrounding spaces and tabs. */
const NOTED_HEADER =
  /\r\n(host|apikey|connection|content-length|transfer-encoding|upgrade|expect):[\t ]*([^\r]*?)[\t ]*(?=\r\n|$)/gi;
/** A header name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Header values node:http refuses to write (its checkInvalidHeaderChar). */
const INVALID_HEADER_CHAR = /[^\t\x20-\x7e\x80-\xff]/;
const DATE_LINE = /\r\ndate:/i;
const CONTENT_LENGTH_LINE = /\r\ncontent-length:/i;

/** A Content-Length the fast path reads itself: plain decimal digits (no sign, leading zero or list). */
const CONTENT_LENGTH = /^(?:0|[1-9]\d{0,4})$/;

/**
 * Parses `data` as exactly one request of the shape the fast path takes, with nothing after it.
 * Returns undefined for anything else, which then goes to node:http as it came.
 */
export function parseFastRequest(data: Buffer): FastRequest | undefined {
  if (data.length > MAX_HEAD + MAX_BODY) return undefined;
  const end = data.indexOf(HEAD_END);
  if (end === -1 || end > MAX_HEAD) return undefined;
  const head = REQUEST_HEAD.exec(data.toString('latin1', 0, end));
  if (!head) return undefined;
  const method = head[1] as FastRequest['method'];
  const headerLines = head[3] as string;
  const withBody = method === 'POST' || method === 'PATCH';

  let hosts = 0;
  let apikeys = 0;
  let apikey: string | undefined;
  let connections = 0;
  let keepAlive = true;
  let lengths = 0;
  let length = -1;
  NOTED_HEADER.lastIndex = 0;
  for (let field = NOTED_HEADER.exec(headerLines); field; field = NOTED_HEADER.exec(headerLines)) {
    const value = field[2] as string;
    switch ((field[1] as string).toLowerCase()) {
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
      case 'content-length':
        // A GET's or HEAD's body, and any length written another way, are node:http's to judge.
        if (!withBody || !CONTENT_LENGTH.test(value)) return undefined;
        lengths++;
        length = Number(value);
        break;
      // Chunked framing, a protocol switch or an expectation: node:http's.
      default:
        return undefined;
    }
  }
  // node:http answers 400 to an HTTP/1.1 request without a host; repeated fields that matter are
  // joined or chosen by its rules, which are not repeated here.
  if (hosts !== 1 || apikeys > 1 || connections > 1) return undefined;
  // A body must be framed by one Content-Length and have come whole with the head, with nothing
  // after it (more would be a pipelined request; less, a body cut across TCP reads): else node:http's.
  if (withBody && (lengths !== 1 || length > MAX_BODY)) return undefined;
  const bodyStart = end + 4;
  if (data.length !== bodyStart + (withBody ? length : 0)) return undefined;
  return {
    method,
    target: head[2] as string,
    headerLines,
    apikey,
    keepAlive,
    body: withBody ? data.subarray(bodyStart) : undefined,
  };
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
const LAST_CHUNK = Buffer.from('0\r\n\r\n');

/**
 * The answer to one fast-path request, written to the socket as node:http's ServerResponse writes it
 * (for the headers the gateway passes: never `Connection`, `Transfer-Encoding`, `Keep-Alive` or
 * `Trailer`, which it leaves out of what it forwards): the status line with node's reason phrase,
 * the headers in order, `Date` unless given, `Connection` and `Keep-Alive`, then `Content-Length` as
 * given or chunked framing.
 *
 * What is written is gathered and goes out in one socket write when the writer says so (`flush`,
 * after each read from upstream) or at `end`: a small answer, head and body, leaves in one system
 * call without node's cork, writev and next-tick machinery.
 */
export class FastResponse implements ResponseSink {
  headersSent = false;
  private hasBody: boolean;
  private chunked = false;
  private done = false;
  /** Bytes gathered since the last flush, and their total length. */
  private out: Buffer[] = [];
  private outLength = 0;

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
    let lines = '';
    for (let i = 0; i < headers.length; i += 2) {
      const name = headers[i] as string;
      const value = headers[i + 1];
      if (!TOKEN.test(name) || value === undefined || INVALID_HEADER_CHAR.test(value)) {
        throw new TypeError(`invalid header ${name}`);
      }
      lines += `\r\n${name}: ${value}`;
    }
    this.writeHeadLines(status, lines);
  }

  /**
   * `writeHead` for header lines already in the form it writes (`\r\nName: value` each, names and
   * values ones node:http accepts), which are not checked again.
   */
  writeHeadLines(status: number, lines: string): void {
    if (this.headersSent) throw new Error('headers already sent');
    let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}${lines}`;
    if (!DATE_LINE.test(lines)) head += `\r\nDate: ${utcDate()}`;
    if (this.keepAlive) {
      head += '\r\nConnection: keep-alive';
      if (this.keepAliveTimeout)
        head += `\r\nKeep-Alive: timeout=${Math.floor(this.keepAliveTimeout / 1000)}`;
    } else {
      head += '\r\nConnection: close';
    }
    if (status === 204 || status === 304 || status < 200) this.hasBody = false;
    if (this.hasBody && !CONTENT_LENGTH_LINE.test(lines)) {
      head += '\r\nTransfer-Encoding: chunked';
      this.chunked = true;
    }
    this.gather(Buffer.from(head + '\r\n\r\n', 'latin1'));
    this.headersSent = true;
  }

  /** Gathers `chunk`; returns false when the client is slow and the writer should wait for 'drain'. */
  write(chunk: Buffer): boolean {
    if (this.done || this.destroyed) return true;
    if (this.hasBody && chunk.length > 0) {
      if (this.chunked) {
        this.gather(Buffer.from(`${chunk.length.toString(16)}\r\n`, 'latin1'));
        this.gather(chunk);
        this.gather(CRLF);
      } else {
        this.gather(chunk);
      }
    }
    return !this.socket.writableNeedDrain;
  }

  /** Sends what was gathered; false, like a socket write, when the client's buffer is full. */
  flush(): boolean {
    if (this.out.length === 0) return !this.socket.writableNeedDrain;
    const data = this.out.length === 1 ? (this.out[0] as Buffer) : Buffer.concat(this.out, this.outLength);
    this.out = [];
    this.outLength = 0;
    if (this.destroyed) return true;
    return this.socket.write(data);
  }

  end(chunk?: Buffer): void {
    if (this.done) return;
    if (!this.destroyed) {
      if (chunk) this.write(chunk);
      if (this.chunked && this.hasBody) this.gather(LAST_CHUNK);
      this.flush();
    }
    this.out = [];
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

  private gather(data: Buffer): void {
    this.out.push(data);
    this.outLength += data.length;
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
