// Scheduled Edge Functions, as a hosted project runs them with pg_cron and pg_net: each job of
// supabase/schedule.toml is a POST to /functions/v1/<function> through the gateway, with the
// service role key as its bearer token and the job's body, as `net.http_post` sends it
// (docs/scheduled-functions.md). Locally every job runs every FUNCTIONS_SCHEDULE_INTERVAL seconds,
// or every `interval_env` seconds for a job that names a setting of its own (first one interval
// after the start; 0 turns it off), not at its cron time; a job
// still running when its next turn comes is skipped that turn, as pg_cron skips a job whose
// previous run has not finished.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { FUNCTION_SLUG } from './project.ts';

export interface ScheduledJob {
  name: string;
  function: string;
  /** pg_cron's schedule on a hosted project (five fields); not used locally. */
  cron: string;
  /** The request's JSON body. */
  body: string;
  /**
   * The setting (environment variable, in seconds) that says how often this job runs locally, and
   * its default; without it the job runs every FUNCTIONS_SCHEDULE_INTERVAL.
   */
  interval?: { env: string; defaultSeconds: number };
}

/** One hour: the local default. */
export const DEFAULT_SCHEDULE_INTERVAL_MS = 3_600_000;

const CRON = /^\S+( \S+){4}$/;

/** The jobs of supabase/schedule.toml (none without the file); a malformed job is an error naming it. */
export function readSchedule(projectRoot: string): ScheduledJob[] {
  const file = path.join(projectRoot, 'supabase', 'schedule.toml');
  if (!existsSync(file)) return [];
  const parsed = parse(readFileSync(file, 'utf8')) as { jobs?: unknown };
  const jobs = parsed.jobs ?? [];
  if (!Array.isArray(jobs)) throw new Error('supabase/schedule.toml: `jobs` must be a list of [[jobs]]');
  const names = new Set<string>();
  return jobs.map((raw: Record<string, unknown>, i) => {
    const where = `supabase/schedule.toml: job ${i + 1}`;
    const { name, function: fn, cron, body = '{}', interval_env, interval_default } = raw;
    if (typeof name !== 'string' || name === '') throw new Error(`${where}: give it a name`);
    if (names.has(name)) throw new Error(`${where}: the name ${name} is taken by an earlier job`);
    names.add(name);
    if (typeof fn !== 'string' || !FUNCTION_SLUG.test(fn))
      throw new Error(`${where} (${name}): \`function\` must name a function of supabase/functions`);
    if (typeof cron !== 'string' || !CRON.test(cron.trim()))
      throw new Error(`${where} (${name}): \`cron\` must have five fields, as pg_cron takes them`);
    if (typeof body !== 'string') throw new Error(`${where} (${name}): \`body\` must be a JSON string`);
    try {
      JSON.parse(body);
    } catch {
      throw new Error(`${where} (${name}): \`body\` is not JSON`);
    }
    if (interval_env === undefined) {
      if (interval_default !== undefined)
        throw new Error(`${where} (${name}): \`interval_default\` needs an \`interval_env\``);
      return { name, function: fn, cron: cron.trim(), body };
    }
    if (typeof interval_env !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(interval_env))
      throw new Error(`${where} (${name}): \`interval_env\` must name an environment variable`);
    if (typeof interval_default !== 'number' || !(interval_default >= 0))
      throw new Error(`${where} (${name}): \`interval_default\` must be a number of seconds`);
    return {
      name,
      function: fn,
      cron: cron.trim(),
      body,
      interval: { env: interval_env, defaultSeconds: interval_default },
    };
  });
}

/**
 * FUNCTIONS_SCHEDULE_INTERVAL (seconds): how often the local scheduler runs every job; 0 is never.
 * With a job, its own setting when it names one (`interval_env`).
 */
export function scheduleIntervalMs(env: Record<string, string | undefined>, job?: ScheduledJob): number {
  const name = job?.interval?.env ?? 'FUNCTIONS_SCHEDULE_INTERVAL';
  const value = env[name];
  if (value === undefined || value === '')
    return job?.interval ? job.interval.defaultSeconds * 1000 : DEFAULT_SCHEDULE_INTERVAL_MS;
  if (!/^\d+(\.\d+)?$/.test(value))
    throw new Error(`${name} must be a number of seconds (0 turns it off), not "${value}"`);
  return Number(value) * 1000;
}

export interface Scheduler {
  /** How many times each job has been started (tests). */
  runs(): Record<string, number>;
  stop(): Promise<void>;
}

/**
 * Runs each job every `intervalMs`, by `call`. A failed call (a thrown error or an answer that is
 * not 2xx) is logged, and the job runs again at its next turn.
 */
export function startScheduler(options: {
  jobs: ScheduledJob[];
  /** How often each job runs: one interval for all, or each job's own. */
  intervalMs: number | ((job: ScheduledJob) => number);
  call(job: ScheduledJob, signal: AbortSignal): Promise<Response>;
  log(line: string): void;
}): Scheduler {
  const { jobs, intervalMs, call, log } = options;
  const counts: Record<string, number> = Object.fromEntries(jobs.map((j) => [j.name, 0]));
  const running = new Map<string, Promise<void>>();
  const aborts = new AbortController();
  const run = (job: ScheduledJob) => {
    if (running.has(job.name)) {
      log(`schedule: ${job.name} is still running; skipping this turn`);
      return;
    }
    counts[job.name] = (counts[job.name] ?? 0) + 1;
    const started = performance.now();
    const done = call(job, aborts.signal)
      .then(async (res) => {
        const ms = Math.round(performance.now() - started);
        const text = (await res.text()).slice(0, 300);
        log(`schedule: ${job.name} → ${job.function}: ${res.status} in ${ms} ms ${text}`);
      })
      .catch((error: unknown) => {
        if (!aborts.signal.aborted) log(`schedule: ${job.name} → ${job.function} failed: ${String(error)}`);
      })
      .finally(() => running.delete(job.name));
    running.set(job.name, done);
  };
  // One timer per interval, running its jobs in their order.
  const byInterval = new Map<number, ScheduledJob[]>();
  for (const job of jobs) {
    const ms = typeof intervalMs === 'number' ? intervalMs : intervalMs(job);
    byInterval.set(ms, [...(byInterval.get(ms) ?? []), job]);
  }
  const timers = [...byInterval]
    .filter(([ms]) => ms > 0)
    .map(([ms, group]) => setInterval(() => group.forEach(run), ms));
  for (const timer of timers) timer.unref();
  return {
    runs: () => ({ ...counts }),
    async stop() {
      for (const timer of timers) clearInterval(timer);
      aborts.abort();
      await Promise.all(running.values());
    },
  };
}

/** A job's request, as pg_net's net.http_post sends it to the project's functions URL. */
export function callFunction(apiUrl: string, serviceRoleKey: string) {
  return (job: ScheduledJob, signal: AbortSignal): Promise<Response> =>
    fetch(`${apiUrl}/functions/v1/${job.function}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${serviceRoleKey}` },
      body: job.body,
      signal,
    });
}
