// One Deno process per function, started on the function's first request and reused by the ones
// after it, as the edge runtime's `per_worker` policy reuses a worker (the CLI's default,
// `[edge_runtime] policy`). A process that dies is started again; one whose files changed is
// replaced: new requests go to a fresh process while the old one finishes what it was answering.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { attemptAfterExit, describeExit, restartDelay, type Exit } from '../lib/supervise.ts';
import { BOOT_ERROR, WORKER_ERROR, WORKER_LIMIT, sendFailure, type Failure } from './errors.ts';
import type { FunctionConfig } from './project.ts';

export interface RuntimeOptions {
  /** The deno binary. */
  deno: string;
  /** emulator/functions/runtime/boot.ts */
  bootScript: string;
  /** Everything the process's environment holds; nothing of the backend's own environment. */
  env(): Promise<Record<string, string>>;
  /** Flags for `deno run` beyond the permissions (the CA file). */
  flags(): Promise<string[]>;
  /** Names in env() the function must not see (Deno's own settings); removed before its code runs. */
  hidden: string[];
  /** supabase/functions: a function may import from any folder in it (`_shared/`). */
  functionsDir: string;
  /** Directory for the function's temporary files. */
  tmpDir: string;
  /** A request still unanswered after this long gets 546 WORKER_LIMIT and its process is ended. */
  wallClockLimitMs: number;
  /** How long a process may take from spawn to listening (npm packages download on first boot). */
  bootTimeoutMs: number;
  log(line: string): void;
}

class BootFailed extends Error {}

/** A running Deno process serving one function on a loopback port. */
class DenoProcess {
  port = 0;
  inFlight = 0;
  /** Why the backend ended it: a failure the requests it was answering are given. */
  endedWith: Failure | null = null;
  retired = false;
  readonly startedAt = Date.now();
  readonly exited: Promise<Exit>;
  private exitedAlready = false;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  private idle: (() => void) | null = null;

  constructor(
    readonly child: ChildProcess,
    readonly name: string,
  ) {
    this.exited = new Promise<Exit>((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitedAlready = true;
        this.agent.destroy();
        resolve({ code, signal });
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return !this.exitedAlready;
  }

  end(failure: Failure | null): void {
    if (!this.running) return;
    this.endedWith ??= failure;
    this.child.kill('SIGKILL');
  }

  /** Ends the process once its requests are answered (or the wall clock ends them). */
  retire(): void {
    this.retired = true;
    if (this.inFlight === 0) this.end(null);
    else this.idle = () => this.end(null);
  }

  forward(req: IncomingMessage, res: ServerResponse, target: string, limitMs: number): Promise<void> {
    this.inFlight += 1;
    return new Promise<void>((resolve) => {
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        this.inFlight -= 1;
        if (this.inFlight === 0 && this.idle) this.idle();
        resolve();
      };
      const timer = setTimeout(() => {
        // The edge runtime cancels a request that outlives its worker's wall clock and ends the
        // worker (`WorkerRequestCancelled` → 546): the process may be stuck, so it goes.
        this.end(WORKER_LIMIT);
        sendFailure(res, WORKER_LIMIT);
        finish();
      }, limitMs);
      const headers = { ...req.headers };
      delete headers.connection;
      const upstream = http.request(
        { host: '127.0.0.1', port: this.port, method: req.method, path: target, headers, agent: this.agent },
        (answer) => {
          res.writeHead(answer.statusCode ?? 500, answer.statusMessage, answer.headers);
          answer.pipe(res);
          answer.on('error', () => res.destroy());
          answer.on('end', finish);
          answer.on('aborted', () => {
            res.destroy();
            finish();
          });
        },
      );
      upstream.on('error', () => {
        if (finished) return;
        void this.exitedOrRunning().then(() => {
          // A request cut off because the process died: the runtime's `InvalidWorkerResponse`.
          sendFailure(res, this.endedWith ?? WORKER_ERROR);
          finish();
        });
      });
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
        finish();
      });
      req.pipe(upstream);
    });
  }

  /** Gives an exit that is under way a moment to be seen, so a crash is told apart from a hiccup. */
  private exitedOrRunning(): Promise<unknown> {
    return Promise.race([this.exited, new Promise((r) => setTimeout(r, 200))]);
  }
}

/** The processes of one function over time: at most one takes new requests. */
export class FunctionHost {
  private current: Promise<DenoProcess> | null = null;
  private attempts = 0;
  private stopped = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly all = new Set<DenoProcess>();

  constructor(
    public config: FunctionConfig,
    private readonly runtime: RuntimeOptions,
  ) {}

  get name(): string {
    return this.config.name;
  }

  /** Pid of the process taking requests, if it is up (tests kill it). */
  async pid(): Promise<number | undefined> {
    const proc = await this.current?.catch(() => undefined);
    return proc?.running ? proc.pid : undefined;
  }

  async handle(req: IncomingMessage, res: ServerResponse, target: string): Promise<void> {
    let proc: DenoProcess;
    try {
      proc = await this.process();
    } catch {
      sendFailure(res, BOOT_ERROR);
      return;
    }
    await proc.forward(req, res, target, this.runtime.wallClockLimitMs);
  }

  /** Its files changed: the next request boots the new code; running requests finish on the old. */
  reload(config: FunctionConfig): void {
    this.config = config;
    const old = this.current;
    this.current = null;
    this.attempts = 0;
    clearTimeout(this.restartTimer);
    void old?.then(
      (proc) => proc.retire(),
      () => undefined,
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    this.current = null;
    const procs = [...this.all];
    for (const proc of procs) proc.end(null);
    await Promise.all(procs.map((proc) => proc.exited));
  }

  private process(): Promise<DenoProcess> {
    if (this.stopped) return Promise.reject(new BootFailed('stopping'));
    if (!this.current) {
      const booting = this.boot();
      this.current = booting;
      // A boot that failed is forgotten, so the next request tries again (and gets its own 503).
      booting.catch(() => {
        if (this.current === booting) this.current = null;
      });
    }
    return this.current;
  }

  private async boot(): Promise<DenoProcess> {
    const { runtime, config } = this;
    const env = await runtime.env();
    const nonce = randomBytes(12).toString('hex');
    const readable = [
      runtime.functionsDir,
      path.dirname(config.entrypoint),
      path.dirname(runtime.bootScript),
    ];
    if (config.importMap) readable.push(path.dirname(config.importMap));
    const flags = [
      'run',
      '--no-prompt',
      '--no-lock',
      '--allow-net',
      '--allow-env',
      '--allow-sys',
      `--allow-read=${[...readable, runtime.tmpDir].join(',')}`,
      `--allow-write=${runtime.tmpDir}`,
      ...(await runtime.flags()),
    ];
    if (!config.importMap) flags.push('--no-config');
    else if (/(^|\/)deno\.jsonc?$/.test(config.importMap)) flags.push(`--config=${config.importMap}`);
    else flags.push('--no-config', `--import-map=${config.importMap}`);
    const child = spawn(
      runtime.deno,
      [...flags, runtime.bootScript, nonce, pathToFileURL(config.entrypoint).href],
      {
        cwd: path.dirname(config.entrypoint),
        env: {
          ...env,
          TMPDIR: runtime.tmpDir,
          // Remix's typing of the environment requires NODE_ENV; the function never sees it.
          NODE_ENV: 'production',
          SUPABASE_INTERNAL_HIDE: [...runtime.hidden, 'NODE_ENV'].join(','),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const proc = new DenoProcess(child, config.name);
    this.all.add(proc);
    void proc.exited.then((exit) => this.exited(proc, exit));

    const marker = `\u0000${nonce} listening `;
    const ready = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new BootFailed(`did not start listening within ${runtime.bootTimeoutMs} ms`));
        proc.end(null);
      }, runtime.bootTimeoutMs);
      void proc.exited.then((exit) => {
        clearTimeout(timer);
        reject(new BootFailed(describeExit(exit)));
      });
      this.logLines(child.stdout, (line) => {
        if (!line.startsWith(marker)) return false;
        clearTimeout(timer);
        resolve(Number(line.slice(marker.length)));
        return true;
      });
      this.logLines(child.stderr, () => false);
    });
    try {
      proc.port = await ready;
    } catch (error) {
      runtime.log(`functions/${config.name}: failed to boot (${(error as Error).message})`);
      throw error;
    }
    runtime.log(
      `functions/${config.name}: serving (pid ${proc.pid}), booted in ${Date.now() - proc.startedAt} ms`,
    );
    return proc;
  }

  private logLines(stream: NodeJS.ReadableStream | null, intercept: (line: string) => boolean): void {
    let pending = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (intercept(line)) continue;
        if (line.trim()) this.runtime.log(`functions/${this.name}: ${line}`);
      }
    });
    stream?.on('end', () => {
      if (pending.trim()) this.runtime.log(`functions/${this.name}: ${pending}`);
    });
  }

  private exited(proc: DenoProcess, exit: Exit): void {
    this.all.delete(proc);
    if (this.stopped || proc.retired || proc.port === 0) return;
    const ranFor = Date.now() - proc.startedAt;
    const reason =
      proc.endedWith === WORKER_LIMIT
        ? 'ended at the wall-clock limit'
        : `exited unexpectedly: ${describeExit(exit)}`;
    this.runtime.log(`functions/${this.name} (pid ${proc.pid}) ${reason}; restarting it`);
    void this.current?.then(
      (current) => {
        if (current !== proc) return;
        this.current = null;
        this.attempts = attemptAfterExit(this.attempts, ranFor);
        const delay = restartDelay(this.attempts);
        this.attempts += 1;
        clearTimeout(this.restartTimer);
        this.restartTimer = setTimeout(() => {
          if (this.stopped || this.current) return;
          this.process().catch(() => undefined);
        }, delay);
      },
      () => undefined,
    );
  }
}
