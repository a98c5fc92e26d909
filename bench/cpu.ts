// Where a page load's CPU goes while a throughput is measured: the app, the backend's processes and
// the load generator share this machine's cores, so a page's throughput is bounded by whichever of
// them runs out first. Read from /proc (Linux), in the kernel's 10 ms ticks: meant for sums over
// hundreds of loads.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

const CLOCK_TICKS = 100;

interface ProcStat {
  pid: number;
  ppid: number;
  name: string;
  cpuMs: number;
}

function readStat(pid: number | string): ProcStat | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone since the directory was listed
  }
  // Fields after the command name, which is in parentheses and may hold spaces.
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  return {
    pid: Number(pid),
    ppid: Number(fields[1]),
    name: stat.slice(stat.indexOf('(') + 1, close),
    cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS,
  };
}

/** CPU time (user + system) a process has used so far, in milliseconds. */
export function cpuMs(pid: number): number {
  return readStat(pid)?.cpuMs ?? 0;
}

/**
 * CPU time all cores have spent busy so far, in milliseconds: everything but idle and I/O wait, with
 * the time the host took from this VM (steal), which was not there for it either.
 */
function machineBusyMs(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return (
    (((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 1000) /
    CLOCK_TICKS
  );
}

export const PARTS = ['app', 'Postgres', 'PostgREST', 'backend', 'load generator'] as const;
export type Part = (typeof PARTS)[number];

/** Which part a process belongs to, or undefined for one not counted. */
type Owner = (stat: ProcStat) => Part | undefined;

/**
 * The app process, and the backend's process (gateway, auth, storage, realtime) with its PostgreSQL
 * and PostgREST children, told apart by name. Other processes, this process's other children among
 * them, are not counted; the load generator (this process) is read on its own.
 */
function ownerOf(stats: ProcStat[], appPid: number, backendPid: number): Owner {
  const parentOf = new Map(stats.map((s) => [s.pid, s.ppid]));
  const underBackend = (pid: number) => {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parentOf.get(p)) {
      if (p === backendPid) return true;
    }
    return false;
  };
  return (stat) => {
    if (stat.pid === appPid) return 'app';
    if (!underBackend(stat.pid)) return undefined;
    if (stat.name === 'postgres') return 'Postgres';
    if (stat.name === 'postgrest') return 'PostgREST';
    return 'backend';
  };
}

/** Every process's CPU so far, by pid. */
function snapshot(): Map<number, ProcStat> {
  const stats = new Map<number, ProcStat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(entry);
    if (stat) stats.set(stat.pid, stat);
  }
  return stats;
}

/**
 * How long a process's main thread has waited so far for a core while it was ready to run, in
 * milliseconds (the second field of its schedstat); undefined where the kernel does not keep it.
 */
function runQueueWaitMs(pid: number): number | undefined {
  try {
    const waitedNs = Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]);
    return Number.isFinite(waitedNs) ? waitedNs / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

const loadGeneratorMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** Each part's CPU per load, and the whole machine's busy time per load against what its cores had. */
export interface CpuPerLoad {
  parts: Record<Part, number>;
  /** Busy time of all cores per load, the kernel's own work included. */
  machineMs: number;
  /** What all cores together had per load: the wall time per load times the number of cores. */
  availableMs: number;
  /**
   * How long the app's event loop was ready to run but waited for a core, per load: the time the
   * other processes on its core took from it. Undefined where the kernel does not say.
   */
  appWaitMs: number | undefined;
}

/** CPU per load, summed over several measured runs of a page. */
export class CpuMeter {
  private loads = 0;
  private wallMs = 0;
  private machineMs = 0;
  private appWaitMs: number | undefined = 0;
  private readonly parts = Object.fromEntries(PARTS.map((part) => [part, 0])) as Record<Part, number>;

  constructor(
    private readonly appPid: number,
    private readonly backendPid: number,
  ) {}

  /** Runs `run`, which makes `loads` page loads, and adds what they cost. */
  async measure<T>(loads: number, run: () => Promise<T>): Promise<T> {
    const before = snapshot();
    const generator0 = loadGeneratorMs();
    const machine0 = machineBusyMs();
    const wait0 = runQueueWaitMs(this.appPid);
    const t0 = performance.now();
    const result = await run();
    this.wallMs += performance.now() - t0;
    this.machineMs += machineBusyMs() - machine0;
    const wait1 = runQueueWaitMs(this.appPid);
    this.appWaitMs =
      this.appWaitMs === undefined || wait0 === undefined || wait1 === undefined
        ? undefined
        : this.appWaitMs + wait1 - wait0;
    this.parts['load generator'] += loadGeneratorMs() - generator0;
    // By process: one that started during the run counts whole; one that ended during it (a pooled
    // database connection closed) is not counted at all, since what it used is gone with it.
    const after = snapshot();
    const owner = ownerOf([...after.values()], this.appPid, this.backendPid);
    for (const stat of after.values()) {
      const part = owner(stat);
      if (!part) continue;
      const delta = stat.cpuMs - (before.get(stat.pid)?.cpuMs ?? 0);
      // Less than before: the pid was reused by a process that started during the run.
      this.parts[part] += delta >= 0 ? delta : stat.cpuMs;
    }
    this.loads += loads;
    return result;
  }

  perLoad(): CpuPerLoad {
    const n = Math.max(this.loads, 1);
    return {
      parts: Object.fromEntries(PARTS.map((part) => [part, this.parts[part] / n])) as Record<Part, number>,
      machineMs: this.machineMs / n,
      availableMs: (this.wallMs * cpus().length) / n,
      appWaitMs: this.appWaitMs === undefined ? undefined : this.appWaitMs / n,
    };
  }
}
