// Streams the `supabase_realtime` publication with the pgoutput plugin over a replication
// connection. The `pg` client carries the walsender's COPY BOTH stream through a submittable that
// takes its CopyData messages; standby status updates go back on the same connection.
//
// The slot is a permanent one, made afresh on start and dropped on stop, so that it outlives the
// connection: when the database restarts (a crash, a kill) the stream reconnects with backoff and
// resumes from the slot after the last transaction it received, so changes committed while it was
// away are delivered once. (A temporary slot would vanish with the crash, and with it those changes.)
import { EventEmitter } from 'node:events';
import pg from 'pg';
import { restartDelay } from '../lib/supervise.ts';
import { decodeCopyData, standbyStatus, type LogicalMessage } from './pgoutput.ts';

export interface ReplicationOptions {
  url: string;
  publication: string;
  slot: string;
  /** Called for every decoded message, in WAL order; the next one waits for its promise. */
  onMessage(message: LogicalMessage): Promise<void> | void;
  log(line: string): void;
}

type Connection = { sendCopyFromChunk(chunk: Buffer): void; query(text: string): void };

/** The START_REPLICATION command as a pg "submittable": pg hands it every message of the stream. */
class StartReplication extends EventEmitter {
  constructor(readonly text: string) {
    super();
  }
  submit(connection: Connection): void {
    connection.query(this.text);
    this.emit('submitted', connection);
  }
  handleCopyData(msg: { chunk: Buffer }, connection: Connection): void {
    this.emit('copyData', msg.chunk, connection);
  }
  handleError(error: Error): void {
    this.emit('error', error);
  }
  handleCommandComplete(): void {}
  handleReadyForQuery(): void {
    this.emit('end');
  }
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
}

export class Replication {
  private client: pg.Client | undefined;
  private connection: Connection | undefined;
  private queue: Promise<void> = Promise.resolve();
  /** Everything up to here was handed to onMessage and is acknowledged to the server. */
  private lastLsn = 0n;
  /** The end of the last transaction received: a reconnected stream starts after it. */
  private receivedLsn = 0n;
  private statusTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private attempts = 0;
  private stopped = false;

  constructor(private readonly options: ReplicationOptions) {}

  async start(): Promise<void> {
    await this.connect(true);
    // A status update every few seconds keeps the walsender from timing the connection out.
    this.statusTimer = setInterval(() => this.acknowledge(), 5000);
    this.statusTimer.unref();
  }

  /** Whether the stream is connected (false while it waits to reconnect). */
  get streaming(): boolean {
    return this.connection !== undefined;
  }

  private async connect(first: boolean): Promise<void> {
    const { url, slot, publication, log } = this.options;
    const replicationUrl = new URL(url);
    replicationUrl.searchParams.set('replication', 'database');
    const client = new pg.Client({
      connectionString: replicationUrl.toString(),
      connectionTimeoutMillis: 5000,
    });
    client.on('error', (error) => {
      if (!this.stopped) log(`realtime replication: ${error.message}`);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      // A slot of this name left by a backend that did not stop (killed) holds changes nobody waits for.
      if (first) await dropSlot(client, slot);
      // After a restart of the database the slot is still there: that is the point of it.
      if (first || !(await slotExists(client, slot))) {
        await client.query(`CREATE_REPLICATION_SLOT ${slot} LOGICAL pgoutput NOEXPORT_SNAPSHOT`);
        if (!first) {
          log(
            `realtime replication: slot ${slot} was gone and is made again; changes from the gap are not delivered`,
          );
        }
      }
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    const from = this.lastLsn > this.receivedLsn ? this.lastLsn : this.receivedLsn;
    const start = new StartReplication(
      `START_REPLICATION SLOT ${slot} LOGICAL ${formatLsn(from)} (proto_version '1', publication_names '${publication}')`,
    );
    start.on('submitted', (connection: Connection) => (this.connection = connection));
    start.on('copyData', (chunk: Buffer) => this.receive(chunk));
    start.on('error', (error: Error) => {
      if (!this.stopped) log(`realtime replication stream: ${error.message}`);
    });
    // The walsender ends the stream only when it goes away (a shutdown): reconnect.
    start.on('end', () => {
      if (this.client !== client) return;
      void client.end().catch(() => undefined);
      this.lost(client);
    });
    void client.query(start);
  }

  /** The connection is gone (the database stopped or was killed): reconnect with backoff. */
  private lost(client: pg.Client): void {
    if (this.stopped || this.client !== client) return;
    this.client = undefined;
    this.connection = undefined;
    this.options.log('realtime replication: connection lost; reconnecting');
    this.retry();
  }

  private retry(): void {
    if (this.stopped || this.retryTimer) return;
    const delay = restartDelay(this.attempts);
    this.attempts += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect(false).then(
        () => {
          if (this.stopped) return;
          this.options.log(
            `realtime replication: resumed from slot ${this.options.slot} after ${this.attempts} attempt(s)`,
          );
          this.attempts = 0;
        },
        (error: unknown) => {
          if (this.stopped) return;
          this.options.log(`realtime replication: reconnect failed (${(error as Error).message ?? error})`);
          this.retry();
        },
      );
    }, delay);
    this.retryTimer.unref();
  }

  private receive(chunk: Buffer): void {
    const copy = decodeCopyData(chunk);
    if (copy.tag === 'keepalive') {
      if (copy.walEnd > this.lastLsn && this.queueIdle) this.lastLsn = copy.walEnd;
      if (copy.replyRequested) this.acknowledge();
      return;
    }
    if (copy.tag !== 'xlog') return;
    const { message } = copy;
    if (message.tag === 'commit' && message.endLsn > this.receivedLsn) this.receivedLsn = message.endLsn;
    this.pending++;
    this.queue = this.queue
      .then(() => this.options.onMessage(message))
      .catch((error: unknown) => this.options.log(`realtime: change not delivered: ${String(error)}`))
      .finally(() => {
        this.pending--;
        if (message.tag === 'commit' && message.endLsn > this.lastLsn) this.lastLsn = message.endLsn;
      });
  }

  private pending = 0;
  private get queueIdle(): boolean {
    return this.pending === 0;
  }

  private acknowledge(): void {
    if (this.stopped || !this.connection) return;
    try {
      this.connection.sendCopyFromChunk(standbyStatus(this.lastLsn));
    } catch (error) {
      this.options.log(`realtime replication status: ${String(error)}`);
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.statusTimer);
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    this.connection = undefined;
    if (client) {
      // A walsender in COPY mode may not answer the goodbye, so the socket is not waited for long.
      await Promise.race([
        client.end().catch(() => undefined),
        new Promise((r) => setTimeout(r, 1000).unref()),
      ]);
    }
    // The slot is permanent: left behind, it would keep WAL for a reader that never comes.
    const admin = new pg.Client({ connectionString: this.options.url, connectionTimeoutMillis: 2000 });
    admin.on('error', () => undefined);
    try {
      await admin.connect();
      await dropSlot(admin, this.options.slot);
    } catch (error) {
      this.options.log(
        `realtime replication: slot ${this.options.slot} not dropped: ${(error as Error).message}`,
      );
    } finally {
      await admin.end().catch(() => undefined);
    }
  }
}

/** `X/Y`, the text form of a WAL location. */
export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

function quoted(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** A replication connection takes only simple queries: no parameters. */
async function slotExists(client: pg.Client, slot: string): Promise<boolean> {
  const { rows } = await client.query(`select 1 from pg_replication_slots where slot_name = ${quoted(slot)}`);
  return rows.length > 0;
}

/**
 * Drops the slot if it exists, first ending the session that still streams from it (a walsender
 * whose client went away without a goodbye lingers until it notices).
 */
async function dropSlot(client: pg.Client, slot: string): Promise<void> {
  const name = quoted(slot);
  for (let attempt = 0; attempt < 40; attempt++) {
    const { rows } = await client.query<{ active_pid: number | null }>(
      `select active_pid from pg_replication_slots where slot_name = ${name}`,
    );
    if (rows.length === 0) return;
    const holder = rows[0]?.active_pid;
    if (holder === null || holder === undefined) {
      try {
        await client.query(`select pg_drop_replication_slot(${name})`);
        return;
      } catch (error) {
        // Taken again between the look and the drop, or dropped by someone else: look again.
        if ((error as { code?: string }).code === '42704') return;
      }
    } else {
      await client.query(`select pg_terminate_backend(${holder})`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`replication slot ${slot} stays in use`);
}
