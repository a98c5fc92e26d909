// Keeps a child process of the backend (PostgreSQL, PostgREST) running: when it exits without being
// asked to, the exit is logged with its code or signal and the child is started again after a delay
// that doubles with every failed attempt, on the same port and data directory.

export interface Backoff {
  /** Delay before the first restart. */
  firstMs: number;
  /** Ceiling of the doubling delay. */
  maxMs: number;
  /** A child that ran this long was healthy: its next exit starts the doubling again. */
  healthyAfterMs: number;
}

export const RESTART_BACKOFF: Backoff = { firstMs: 100, maxMs: 4000, healthyAfterMs: 30_000 };

/** The delay before restart attempt `attempt` (0 for the first after a healthy run). */
export function restartDelay(attempt: number, policy: Backoff = RESTART_BACKOFF): number {
  return Math.min(policy.maxMs, policy.firstMs * 2 ** Math.max(0, attempt));
}

/**
 * The attempt number for the restart after a child that ran `ranForMs` exited, when `attempts`
 * restarts came before it without a healthy run in between.
 */
export function attemptAfterExit(
  attempts: number,
  ranForMs: number,
  policy: Backoff = RESTART_BACKOFF,
): number {
  return ranForMs >= policy.healthyAfterMs ? 0 : attempts;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export function describeExit(exit: Exit): string {
  if (exit.signal) return `killed by ${exit.signal}`;
  return `exit code ${exit.code ?? 'unknown'}`;
}

export interface Child {
  pid: number | undefined;
  /** Resolves when the process has exited, for whatever reason. */
  exited: Promise<Exit>;
  /** Whether the process is still running. */
  readonly running: boolean;
}

export interface SupervisorOptions<C extends Child> {
  /** Names the child in the log: `postgres`, `postgrest`. */
  name: string;
  /**
   * Starts the child and resolves once it serves. An aborted `signal` means the backend is stopping:
   * kill what was spawned and reject.
   */
  start(signal: AbortSignal): Promise<C>;
  log(line: string): void;
  policy?: Backoff;
  /** After every successful restart (not the first start). */
  onRestart?(child: C): void;
}

export class Supervisor<C extends Child> {
  private child: C | undefined;
  private halted = false;
  private readonly abort = new AbortController();
  private starting: Promise<unknown> | undefined;
  private wake: (() => void) | undefined;
  restarts = 0;

  constructor(private readonly options: SupervisorOptions<C>) {}

  /** The child started last; it may have exited and be waiting for its restart. */
  get current(): C | undefined {
    return this.child;
  }

  /** The first start: its failure is the caller's to explain. Then the child is watched. */
  async start(): Promise<C> {
    const child = await this.options.start(this.abort.signal);
    this.child = child;
    void this.watch(child);
    return child;
  }

  private async watch(first: C): Promise<void> {
    const { name, log } = this.options;
    const policy = this.options.policy ?? RESTART_BACKOFF;
    let child = first;
    let startedAt = Date.now();
    let attempts = 0;
    for (;;) {
      const exit = await child.exited;
      if (this.halted) return;
      const exitedAt = Date.now();
      attempts = attemptAfterExit(attempts, exitedAt - startedAt, policy);
      log(`${name} (pid ${child.pid}) exited unexpectedly: ${describeExit(exit)}; restarting it`);
      for (;;) {
        const delay = restartDelay(attempts, policy);
        attempts += 1;
        await this.sleep(delay);
        if (this.halted) return;
        const attempt = this.options.start(this.abort.signal);
        this.starting = attempt.catch(() => undefined);
        try {
          child = await attempt;
        } catch (error) {
          if (this.halted) return;
          log(
            `${name}: restart failed (${messageOf(error)}); next attempt in ${restartDelay(attempts, policy)} ms`,
          );
          continue;
        } finally {
          this.starting = undefined;
        }
        this.child = child;
        startedAt = Date.now();
        this.restarts += 1;
        log(`${name} restarted (pid ${child.pid}), serving ${startedAt - exitedAt} ms after the exit`);
        if (this.halted) return;
        try {
          this.options.onRestart?.(child);
        } catch (error) {
          log(`${name}: after restart: ${messageOf(error)}`);
        }
        break;
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    }).finally(() => {
      this.wake = undefined;
    });
  }

  /**
   * Stops restarting: a pending restart is cancelled and one under way aborted. Resolves with the
   * child that may still run, for the caller to stop as it stops a child.
   */
  async halt(): Promise<C | undefined> {
    this.halted = true;
    this.abort.abort();
    this.wake?.();
    await this.starting;
    return this.child?.running ? this.child : undefined;
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.message;
  return String(error ?? 'no reason given');
}
