// A small keep-alive HTTP/1.1 client for the gateway's busiest path to PostgREST: body-less requests
// (every REST read), and requests whose small body came whole (the fast path's calls and writes).
// node:http's client costs about as much per request as PostgREST's own work on a small read (an
// agent, a ClientRequest, an IncomingMessage stream and a pipe each time); this one writes the
// request in one call and feeds the response straight into the gateway's response (node:http's
// ServerResponse, or the fast path's), streaming the body as it comes. It only has to understand
// PostgREST's answers: HTTP/1.1 with Content-Length or chunked framing (and, to be safe, a body read
// until close).
import net from 'node:net';

/**
 * Where a response goes: node:http's ServerResponse, or the gateway's fast path's own (fast-path.ts).
 * `writeHead` takes the headers as a flat [name, value, …] list and may throw on a value it refuses.
 */
export interface ResponseSink {
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  writeHead(status: number, headers: string[]): unknown;
  write(chunk: Buffer): boolean;
  /**
   * For a sink that can: `writeHead` given the header lines already in the form it writes
   * (`\r\nName: value` each).
   */
  writeHeadLines?(status: number, lines: string): unknown;
  /**
   * For a sink that gathers what is written (the fast path's): sends it. Called after each read from
   * upstream; false when the client is slow and the writer should wait for 'drain'.
   */
  flush?(): boolean;
  end(chunk?: Buffer): unknown;
  destroy(error?: Error): unknown;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  removeListener(event: 'drain' | 'close', listener: () => void): unknown;
}

/** Why an exchange failed before the response's head reached the caller. */
export class UpstreamFailed extends Error {}

/**
 * A response head in the form a sink that takes header lines writes (node:http's form): a status
 * line, then `\r\nName: value` lines with a token for a name, one space after the colon, and a value
 * without surrounding spaces or tabs of characters node:http accepts. PostgREST writes its heads so.
 */
const CANONICAL_HEAD =
  /^HTTP\/1\.[01] ([1-9]\d\d)(?: [^\r\n]*)?((?:\r\n[!#$%&'*+\-.^_`|~0-9A-Za-z]+: (?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?)*)$/;
/** The lines that say how the body is framed and whether the connection stays open. */
const FRAMING_LINE = /\r\n(content-length|transfer-encoding|connection): ([^\r]*)/gi;
const CHUNKED = /(^|,)\s*chunked\s*$/i;
const CLOSE = /\bclose\b/i;

/** The largest response head accepted; PostgREST's are a few hundred bytes. */
const MAX_HEAD = 64 * 1024;
const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

interface Exchange {
  method: string;
  head: string;
  /** The request's body, sent with the head in one write; the fast path's requests only. */
  body: Buffer | undefined;
  res: ResponseSink;
  /** Called when nothing of the response was written yet: the caller answers the error itself. */
  fail: (res: ResponseSink, error: Error) => void;
  /** Whether this exchange may be sent again on a fresh connection (an idempotent, body-less request). */
  retriable: boolean;
}

type BodyState =
  | { kind: 'head' }
  | { kind: 'length'; remaining: number }
  | { kind: 'chunk-size' }
  | { kind: 'chunk-data'; remaining: number }
  | { kind: 'chunk-end' }
  | { kind: 'trailers' }
  | { kind: 'until-close' };

class Connection {
  readonly socket: net.Socket;
  exchange: Exchange | null = null;
  /** Bytes received but not yet parsed: a head or a chunk-size line cut in two by TCP. */
  private pending: Buffer | null = null;
  private state: BodyState = { kind: 'head' };
  private reusable = true;
  /** Whether any byte of the current exchange's response arrived (a retry is only safe before). */
  private answered = false;
  /** Whether the socket served an exchange before this one (a stale keep-alive socket may fail). */
  reused = false;
  /** When the connection went back to the pool (performance.now()), for the idle sweep. */
  idleSince = 0;

  constructor(
    private readonly pool: Upstream,
    port: number,
    host: string,
  ) {
    this.socket = net.connect({ port, host, noDelay: true });
    this.socket.on('data', (data: Buffer) => this.onData(data));
    this.socket.on('error', () => this.socket.destroy());
    this.socket.on('close', () => this.onClose());
  }

  send(exchange: Exchange): void {
    this.exchange = exchange;
    this.state = { kind: 'head' };
    this.answered = false;
    this.reusable = true;
    if (exchange.body?.length) {
      this.socket.write(Buffer.concat([Buffer.from(exchange.head, 'latin1'), exchange.body]));
    } else {
      this.socket.write(exchange.head, 'latin1');
    }
  }

  /**
   * The gateway's client went away while this socket was paused for it: the pause would never end,
   * so the socket goes. Otherwise a client gone is noticed when the body is written (see `write`);
   * an answer read whole before then is dropped by the closed ServerResponse, and the connection
   * stays in the pool.
   */
  private readonly onResponseClosed = () => {
    if (this.exchange) this.socket.destroy();
  };

  private readonly resume = () => {
    this.exchange?.res.removeListener('close', this.onResponseClosed);
    this.socket.resume();
  };

  private onData(data: Buffer): void {
    const exchange = this.exchange;
    if (!exchange) {
      // Bytes nobody asked for: the connection is out of step.
      this.socket.destroy();
      return;
    }
    this.answered = true;
    let buf = this.pending ? Buffer.concat([this.pending, data]) : data;
    this.pending = null;
    try {
      buf = this.parse(exchange, buf);
    } catch (error) {
      this.abort(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (buf.length > 0) {
      if (this.exchange) this.pending = buf;
      else this.socket.destroy(); // more than one response: never expected
    }
    // Part of a body read while the response goes on: out to a gathering sink now.
    if (this.exchange === exchange && exchange.res.flush && !exchange.res.flush())
      this.waitForDrain(exchange);
  }

  /** Consumes what it can of `buf`; returns the bytes it needs more data to understand. */
  private parse(exchange: Exchange, buf: Buffer): Buffer {
    let offset = 0;
    while (this.exchange === exchange) {
      const state = this.state;
      switch (state.kind) {
        case 'head': {
          const end = buf.indexOf(HEAD_END, offset);
          if (end === -1) {
            if (buf.length - offset > MAX_HEAD) throw new UpstreamFailed('response head too large');
            return buf.subarray(offset);
          }
          this.onHead(exchange, buf.toString('latin1', offset, end));
          offset = end + 4;
          break;
        }
        case 'length': {
          const n = Math.min(state.remaining, buf.length - offset);
          if (n === state.remaining) {
            // The body's last bytes (usually the whole body, which came with the head): one `end`,
            // so node:http sends the head and the body in one write.
            state.remaining = 0;
            this.finish(exchange, buf.subarray(offset, offset + n));
            offset += n;
            break;
          }
          this.write(exchange, buf.subarray(offset, offset + n));
          offset += n;
          state.remaining -= n;
          return buf.subarray(offset);
        }
        case 'chunk-size':
        case 'trailers': {
          const eol = buf.indexOf(CRLF, offset);
          if (eol === -1) {
            if (buf.length - offset > MAX_HEAD) throw new UpstreamFailed('chunk line too long');
            return buf.subarray(offset);
          }
          const line = buf.toString('latin1', offset, eol);
          offset = eol + 2;
          if (state.kind === 'trailers') {
            // Trailer fields are dropped (node:http would need them declared up front); an empty line ends them.
            if (line === '') this.finish(exchange);
            break;
          }
          const size = Number.parseInt(line, 16); // a chunk extension after `;` is ignored, as parseInt stops there
          if (!Number.isFinite(size) || size < 0) throw new UpstreamFailed('bad chunk size');
          this.state = size === 0 ? { kind: 'trailers' } : { kind: 'chunk-data', remaining: size };
          break;
        }
        case 'chunk-data': {
          const n = Math.min(state.remaining, buf.length - offset);
          if (n > 0) this.write(exchange, buf.subarray(offset, offset + n));
          offset += n;
          state.remaining -= n;
          if (state.remaining > 0) return buf.subarray(offset);
          this.state = { kind: 'chunk-end' };
          break;
        }
        case 'chunk-end': {
          if (buf.length - offset < 2) return buf.subarray(offset);
          if (buf[offset] !== 13 || buf[offset + 1] !== 10) throw new UpstreamFailed('bad chunk end');
          offset += 2;
          this.state = { kind: 'chunk-size' };
          break;
        }
        case 'until-close': {
          if (offset < buf.length) this.write(exchange, buf.subarray(offset));
          return buf.subarray(buf.length);
        }
      }
    }
    return buf.subarray(offset);
  }

  private onHead(exchange: Exchange, head: string): void {
    const res = exchange.res;
    const canonical = res.writeHeadLines ? CANONICAL_HEAD.exec(head) : null;
    if (canonical && res.writeHeadLines) {
      // A head in the form the sink writes: passed on as lines, without being taken apart.
      const status = Number(canonical[1]);
      if (status < 200) return;
      const lines = canonical[2] as string;
      let length = -1;
      let chunked = false;
      FRAMING_LINE.lastIndex = 0;
      for (let field = FRAMING_LINE.exec(lines); field; field = FRAMING_LINE.exec(lines)) {
        const value = field[2] as string;
        switch ((field[1] as string).toLowerCase()) {
          case 'content-length':
            length = Number(value);
            break;
          case 'transfer-encoding':
            chunked = CHUNKED.test(value);
            break;
          default:
            if (CLOSE.test(value)) this.reusable = false;
        }
      }
      res.writeHeadLines(
        status,
        lines.replace(this.pool.responseLinesNotForwarded, '') + this.pool.responseLinesAdded,
      );
      this.afterHead(exchange, status, length, chunked);
      return;
    }
    const lines = head.split('\r\n');
    const statusLine = lines[0] ?? '';
    const status = Number(statusLine.slice(9, 12));
    if (!statusLine.startsWith('HTTP/1.') || !Number.isInteger(status) || status < 100) {
      throw new UpstreamFailed('bad status line');
    }
    // An interim answer (100 Continue, 103 Early Hints) comes before the real one.
    if (status < 200) return;
    const dropped = this.pool.responseHeadersNotForwarded;
    const headers: string[] = [];
    let length = -1;
    let chunked = false;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      const colon = line.indexOf(':');
      if (colon <= 0) throw new UpstreamFailed('bad header line');
      const name = line.slice(0, colon);
      const value = line.slice(colon + 1).trim();
      const lower = name.toLowerCase();
      if (lower === 'content-length') length = Number(value);
      else if (lower === 'transfer-encoding') chunked = CHUNKED.test(value);
      else if (lower === 'connection' && CLOSE.test(value)) this.reusable = false;
      if (!dropped.has(lower)) headers.push(name, value);
    }
    for (const field of this.pool.responseHeadersAdded) headers.push(field);
    // writeHead throws on a header value node:http refuses; that is a bad upstream answer too.
    res.writeHead(status, headers);
    this.afterHead(exchange, status, length, chunked);
  }

  /** After the head: how the body is read, given its framing. */
  private afterHead(exchange: Exchange, status: number, length: number, chunked: boolean): void {
    const bodiless = exchange.method === 'HEAD' || status === 204 || status === 304;
    if (bodiless) this.finish(exchange);
    else if (chunked) this.state = { kind: 'chunk-size' };
    else if (length >= 0 && Number.isSafeInteger(length)) {
      this.state = { kind: 'length', remaining: length };
      if (length === 0) this.finish(exchange);
    } else {
      this.reusable = false;
      this.state = { kind: 'until-close' };
    }
  }

  private write(exchange: Exchange, data: Buffer): void {
    if (exchange.res.destroyed) {
      // The client went away: nobody would read the rest, so PostgREST is stopped from sending it.
      this.exchange = null;
      this.socket.destroy();
      return;
    }
    if (!exchange.res.write(data)) this.waitForDrain(exchange);
  }

  /** Backpressure: a slow client pauses the read from PostgREST instead of buffering in memory. */
  private waitForDrain(exchange: Exchange): void {
    if (this.socket.isPaused()) return;
    this.socket.pause();
    exchange.res.once('drain', this.resume);
    exchange.res.once('close', this.onResponseClosed);
  }

  private finish(exchange: Exchange, last?: Buffer): void {
    this.exchange = null;
    // Both are only there if a slow client paused this socket (cheap to remove otherwise).
    exchange.res.removeListener('close', this.onResponseClosed);
    exchange.res.removeListener('drain', this.resume);
    // The whole response is read: a pause for a slow client must not outlive it in the pool.
    if (this.socket.isPaused()) this.socket.resume();
    if (last) exchange.res.end(last);
    else exchange.res.end();
    this.reused = true;
    if (this.reusable && this.pending === null) this.pool.release(this);
    else this.socket.destroy();
  }

  private abort(error: Error): void {
    const exchange = this.exchange;
    this.socket.destroy();
    if (exchange) this.fail(exchange, error);
  }

  private fail(exchange: Exchange, error: Error): void {
    this.exchange = null;
    exchange.res.removeListener('close', this.onResponseClosed);
    exchange.res.removeListener('drain', this.resume);
    if (!exchange.res.headersSent) exchange.fail(exchange.res, error);
    else exchange.res.destroy(error);
  }

  private onClose(): void {
    this.pool.forget(this);
    const exchange = this.exchange;
    if (!exchange) return;
    if (this.state.kind === 'until-close') {
      this.finish(exchange);
      return;
    }
    // A kept-alive socket PostgREST closed just as it was reused: nothing was processed, so an
    // idempotent request goes again on a fresh connection.
    if (this.reused && !this.answered && exchange.retriable) {
      this.exchange = null;
      exchange.res.removeListener('close', this.onResponseClosed);
      this.pool.dispatch(exchange, true);
      return;
    }
    this.fail(exchange, new UpstreamFailed('upstream closed the connection'));
  }
}

/** Matches the lines of the headers named (lower-case names) in a block of CRLF-led header lines. */
function linesOf(names: Iterable<string>): RegExp {
  const alternatives = [...names].map((name) => name.replace(/[^a-z0-9]/g, '\\$&'));
  return new RegExp(`\\r\\n(?:${alternatives.join('|')}):[^\\r]*`, 'gi');
}

export interface UpstreamOptions {
  host: string;
  port: number;
  /** How many idle connections are kept for reuse. */
  maxIdle?: number;
  /** How long an idle connection is kept, in ms; below PostgREST's own keep-alive timeout. */
  idleTimeout?: number;
  /** Request headers not forwarded (lower-case names). `host` never is: the client writes its own. */
  requestHeadersNotForwarded?: Iterable<string>;
  /**
   * Response headers not forwarded (lower-case names). The framing ones (`transfer-encoding`,
   * `connection`, `keep-alive`) never are: the body is re-framed for the gateway's own connection.
   */
  responseHeadersNotForwarded?: Iterable<string>;
  /** Headers added to every response, as a flat [name, value, …] list. */
  responseHeadersAdded?: readonly string[];
}

export interface ForwardRequest<R extends ResponseSink = ResponseSink> {
  method: string;
  /** Path and query string, as PostgREST should see them. */
  path: string;
  /**
   * The request's headers: a flat [name, value, …] list, as node:http's `rawHeaders` has them, or the
   * header lines as they came, each led by CRLF (the fast path's form, already checked to be well
   * formed). Those in `requestHeadersNotForwarded` are left out as the head is written.
   */
  rawHeaders: readonly string[] | string;
  /**
   * A body that came whole (the fast path's POST and PATCH), framed by the Content-Length among the
   * header lines. Requests with a streamed body go through node:http's client instead.
   */
  body?: Buffer;
  res: R;
  /**
   * Answers the client when nothing of PostgREST's answer was sent: given `res` back, so one function
   * serves every request.
   */
  fail: (res: R, error: Error) => void;
}

/** A pool of keep-alive connections to one HTTP/1.1 server, for requests with no body or a whole one. */
export class Upstream {
  private readonly idle: Connection[] = [];
  private readonly host: string;
  private readonly port: number;
  private readonly maxIdle: number;
  private readonly idleTimeout: number;
  private readonly hostHeader: string;
  private readonly requestHeadersNotForwarded: ReadonlySet<string>;
  /** The lines of those headers in a block of CRLF-led header lines. */
  private readonly requestLinesNotForwarded: RegExp;
  readonly responseHeadersNotForwarded: ReadonlySet<string>;
  readonly responseHeadersAdded: readonly string[];
  /** The lines of the headers not forwarded, and the added headers as lines, for `writeHeadLines`. */
  readonly responseLinesNotForwarded: RegExp;
  readonly responseLinesAdded: string;
  private closed = false;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(options: UpstreamOptions) {
    this.host = options.host;
    this.port = options.port;
    this.maxIdle = options.maxIdle ?? 16;
    this.idleTimeout = options.idleTimeout ?? 4000;
    this.hostHeader = `${options.host}:${options.port}`;
    this.requestHeadersNotForwarded = new Set(['host', ...(options.requestHeadersNotForwarded ?? [])]);
    this.requestLinesNotForwarded = linesOf(this.requestHeadersNotForwarded);
    this.responseHeadersNotForwarded = new Set([
      'transfer-encoding',
      'connection',
      'keep-alive',
      ...(options.responseHeadersNotForwarded ?? []),
    ]);
    this.responseHeadersAdded = options.responseHeadersAdded ?? [];
    this.responseLinesNotForwarded = linesOf(this.responseHeadersNotForwarded);
    let added = '';
    for (let i = 0; i < this.responseHeadersAdded.length; i += 2) {
      added += `\r\n${this.responseHeadersAdded[i]}: ${this.responseHeadersAdded[i + 1]}`;
    }
    this.responseLinesAdded = added;
  }

  forward<R extends ResponseSink>(request: ForwardRequest<R>): void {
    let head = `${request.method} ${request.path} HTTP/1.1\r\nHost: ${this.hostHeader}`;
    const raw = request.rawHeaders;
    if (typeof raw === 'string') {
      head += raw.replace(this.requestLinesNotForwarded, '');
    } else {
      const dropped = this.requestHeadersNotForwarded;
      for (let i = 0; i < raw.length; i += 2) {
        const name = raw[i] as string;
        if (!dropped.has(name.toLowerCase())) head += `\r\n${name}: ${raw[i + 1]}`;
      }
    }
    head += '\r\n\r\n';
    this.dispatch(
      {
        method: request.method,
        head,
        body: request.body,
        res: request.res,
        fail: request.fail as Exchange['fail'],
        retriable: request.method === 'GET' || request.method === 'HEAD',
      },
      false,
    );
  }

  /** Sends on the most recently used idle connection (warm, least likely to have timed out), or a new one. */
  dispatch(exchange: Exchange, fresh: boolean): void {
    if (this.closed) {
      exchange.fail(exchange.res, new UpstreamFailed('gateway closing'));
      return;
    }
    const connection = (!fresh && this.idle.pop()) || new Connection(this, this.port, this.host);
    connection.socket.ref();
    connection.send(exchange);
  }

  release(connection: Connection): void {
    if (this.closed || this.idle.length >= this.maxIdle) {
      connection.socket.destroy();
      return;
    }
    // An idle connection neither keeps the process alive nor lingers past the idle timeout. One
    // pool-wide sweep does the latter: a timer per socket, set and cleared on every request,
    // costs more than the rest of the pool's bookkeeping.
    connection.socket.unref();
    connection.idleSince = performance.now();
    this.idle.push(connection);
    this.sweeper ??= setInterval(this.sweep, this.idleTimeout / 4).unref();
  }

  /**
   * Closes the connections idle for 3/4 of the idle timeout or more; run every quarter of it, so none
   * is kept past the timeout. `idle` is a stack, so its oldest connections are at the bottom.
   */
  private readonly sweep = () => {
    const cutoff = performance.now() - (this.idleTimeout * 3) / 4;
    let stale = 0;
    while (stale < this.idle.length && (this.idle[stale] as Connection).idleSince <= cutoff) stale++;
    for (const connection of this.idle.splice(0, stale)) connection.socket.destroy();
    if (this.idle.length === 0) this.stopSweeping();
  };

  private stopSweeping(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  forget(connection: Connection): void {
    const i = this.idle.indexOf(connection);
    if (i !== -1) this.idle.splice(i, 1);
  }

  destroy(): void {
    this.closed = true;
    this.stopSweeping();
    for (const connection of this.idle.splice(0)) connection.socket.destroy();
  }
}
