// Streams the `supabase_realtime` publication with the pgoutput plugin over a replication
// connection, from a temporary slot that Postgres drops when the connection ends. The `pg` client
// carries the walsender's COPY BOTH stream through a submittable that takes its CopyData messages;
// standby status updates go back on the same connection.
import { EventEmitter } from 'node:events';
import pg from 'pg';
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
  private lastLsn = 0n;
  private statusTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: ReplicationOptions) {}

  async start(): Promise<void> {
    const { url, slot, publication } = this.options;
    const replicationUrl = new URL(url);
    replicationUrl.searchParams.set('replication', 'database');
    const client = new pg.Client({ connectionString: replicationUrl.toString() });
    client.on('error', (error) => this.options.log(`realtime replication: ${error.message}`));
    await client.connect();
    this.client = client;
    await client.query(`CREATE_REPLICATION_SLOT ${slot} TEMPORARY LOGICAL pgoutput NOEXPORT_SNAPSHOT`);
    const start = new StartReplication(
      `START_REPLICATION SLOT ${slot} LOGICAL 0/0 (proto_version '1', publication_names '${publication}')`,
    );
    start.on('submitted', (connection: Connection) => (this.connection = connection));
    start.on('copyData', (chunk: Buffer) => this.receive(chunk));
    start.on('error', (error: Error) => {
      if (!this.stopped) this.options.log(`realtime replication stream: ${error.message}`);
    });
    void client.query(start);
    // A status update every few seconds keeps the walsender from timing the connection out.
    this.statusTimer = setInterval(() => this.acknowledge(), 5000);
    this.statusTimer.unref();
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
    this.stopped = true;
    clearInterval(this.statusTimer);
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    // Ending the connection drops the temporary slot. A walsender in COPY mode may not answer the
    // goodbye, so the socket is not waited for long.
    await Promise.race([
      client.end().catch(() => undefined),
      new Promise((r) => setTimeout(r, 1000).unref()),
    ]);
  }
}
