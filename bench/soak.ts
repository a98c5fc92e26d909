// `npm run bench -- soak [minutes]`: does the backend's memory level off under steady use? A mix of
// what an app does through the gateway (REST reads, new users, password sign-ins, refreshes, reading
// the user, small storage uploads and downloads) at about 44 requests a second, for `minutes` (15 by
// default). The first 3 minutes warm up (V8 sizes its heap, each PostgreSQL backend fills its
// caches, the mailbox fills towards its 1,000-message cap); then the backend process's and
// PostgreSQL's memory are sampled every 30 s. 12 measured minutes are over 30,000 requests: anything
// kept per request, per user or per token grows by megabytes in that time, while caches and pools
// stop growing once every table, key and connection has been seen.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import type { BenchBackend } from './backend.ts';
import { prepareRestTable } from './rest-table.ts';

const RATE_PER_S = 44;
const MAX_IN_FLIGHT = 8;
const WARM_UP_S = 180;
const SAMPLE_EVERY_S = 30;
const BUCKET = 'soak';

interface Sample {
  atS: number;
  requests: number;
  /** The backend's Node process (gateway, auth, storage, realtime, mailbox): proportional set size. */
  backendMb: number;
  /** V8's heap after a full collection: what the backend keeps. */
  heapMb: number;
  /** PostgreSQL's postmaster and every backend of it, proportional set sizes summed (shared memory split). */
  postgresMb: number;
  postgrestMb: number;
}

/** Proportional set size of a process in MB (shared pages divided among their sharers), 0 once gone. */
function pssMb(pid: number): number {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Every process below `root`, with its command name. */
function descendants(root: number): Array<{ pid: number; comm: string }> {
  const children = new Map<number, number[]>();
  const comms = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …; comm may hold spaces and parentheses, so read from the last ')'.
      const close = stat.lastIndexOf(')');
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      comms.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const out: Array<{ pid: number; comm: string }> = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift() ?? 0;
    out.push({ pid, comm: comms.get(pid) ?? '' });
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

async function sample(backend: BenchBackend, atS: number, requests: number): Promise<Sample> {
  const below = descendants(backend.pid);
  const sum = (comm: RegExp) =>
    below.filter((p) => comm.test(p.comm)).reduce((total, p) => total + pssMb(p.pid), 0);
  const usage = await backend.memory();
  return {
    atS,
    requests,
    backendMb: pssMb(backend.pid),
    heapMb: usage.heapUsed / 2 ** 20,
    postgresMb: sum(/^postgres$/),
    postgrestMb: sum(/^postgrest/),
  };
}

/** One user's worth of the app's calls; each call picks the next step. */
function workload(backend: BenchBackend) {
  const headers = (token = backend.anonKey) => ({
    apikey: backend.anonKey,
    Authorization: `Bearer ${token}`,
    'Content-Type': 'application/json',
  });
  const api = (path: string, init: RequestInit = {}, token?: string) =>
    fetch(`${backend.apiUrl}${path}`, { ...init, headers: { ...headers(token), ...init.headers } });
  const password = 'a-soak-password';
  let users = 0;
  let session: { access_token: string; refresh_token: string; email: string } | undefined;
  // Each new user signs in once and keeps refreshing that session until the next one.

  const steps: Array<() => Promise<Response>> = [
    () => api('/rest/v1/bench_items?select=id,title&done=eq.true&limit=20'),
    () => api('/rest/v1/bench_items?id=eq.7'),
    () =>
      api(
        '/auth/v1/admin/users',
        {
          method: 'POST',
          body: JSON.stringify({
            email: `soak-${process.pid}-${++users}@example.test`,
            password,
            email_confirm: true,
          }),
        },
        backend.serviceRoleKey,
      ),
    async () => {
      const email = `soak-${process.pid}-${users}@example.test`;
      const res = await api('/auth/v1/token?grant_type=password', {
        method: 'POST',
        body: JSON.stringify({ email, password }),
      });
      const body = (await res.clone().json()) as { access_token?: string; refresh_token?: string };
      if (body.access_token && body.refresh_token)
        session = { access_token: body.access_token, refresh_token: body.refresh_token, email };
      return res;
    },
    async () => {
      const res = await api('/auth/v1/token?grant_type=refresh_token', {
        method: 'POST',
        body: JSON.stringify({ refresh_token: session?.refresh_token ?? 'none' }),
      });
      const body = (await res.clone().json()) as { access_token?: string; refresh_token?: string };
      if (session && body.access_token && body.refresh_token)
        session = { ...session, access_token: body.access_token, refresh_token: body.refresh_token };
      return res;
    },
    () => api('/auth/v1/user', {}, session?.access_token),
    () => api('/rest/v1/bench_items?select=*&order=id.desc&limit=50', {}, session?.access_token),
    () =>
      api(
        `/storage/v1/object/${BUCKET}/file-${users % 50}.txt`,
        {
          method: 'POST',
          body: `soak ${Date.now()}`,
          headers: { 'Content-Type': 'text/plain', 'x-upsert': 'true' },
        },
        backend.serviceRoleKey,
      ),
    () => api(`/storage/v1/object/${BUCKET}/file-${users % 50}.txt`, {}, backend.serviceRoleKey),
  ];
  let next = 0;
  return async (): Promise<boolean> => {
    const step = steps[next++ % steps.length];
    if (!step) return false;
    const res = await step();
    await res.arrayBuffer();
    return res.status < 500;
  };
}

function printSamples(samples: Sample[]): void {
  console.log('\n  time   requests   backend (heap)      PostgreSQL   PostgREST');
  for (const s of samples) {
    console.log(
      `${`${Math.round(s.atS)} s`.padStart(6)}  ${String(s.requests).padStart(9)}   ` +
        `${s.backendMb.toFixed(1).padStart(6)} MB (${s.heapMb.toFixed(1).padStart(5)})   ` +
        `${s.postgresMb.toFixed(1).padStart(7)} MB   ${s.postgrestMb.toFixed(1).padStart(6)} MB`,
    );
  }
}

/** Whether a series levelled off: its last third grew by less than 2 % of its value (or 2 MB). */
function verdict(name: string, values: number[]): string {
  const third = Math.max(1, Math.floor(values.length / 3));
  const last = values.slice(-third - 1);
  const growth = (last[last.length - 1] ?? 0) - (last[0] ?? 0);
  const first = values[0] ?? 0;
  const end = values[values.length - 1] ?? 0;
  const flat = growth < Math.max(2, 0.02 * end);
  return `${name}: ${first.toFixed(1)} MB after warm-up, ${end.toFixed(1)} MB at the end; last third ${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB: ${flat ? 'levelled off' : 'still growing'}`;
}

export async function soak(
  start: (dataDir: string) => Promise<BenchBackend>,
  scratchDir: () => string,
  minutes: number,
): Promise<void> {
  const dir = scratchDir();
  const backend = await start(dir);
  try {
    await prepareRestTable(backend);
    const create = await fetch(`${backend.apiUrl}/storage/v1/bucket`, {
      method: 'POST',
      headers: {
        apikey: backend.anonKey,
        Authorization: `Bearer ${backend.serviceRoleKey}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ name: BUCKET, public: false }),
    });
    if (!create.ok) throw new Error(`could not create the soak bucket: ${create.status}`);
    const step = workload(backend);
    const total = Math.max(WARM_UP_S + 2 * SAMPLE_EVERY_S, minutes * 60) * 1000;
    const t0 = performance.now();
    let sent = 0;
    let failed = 0;
    let inFlight = 0;
    let skipped = 0;
    const samples: Sample[] = [];
    let nextSample = WARM_UP_S * 1000;
    console.log(
      `Soak: ${RATE_PER_S} requests/s for ${(total / 60_000).toFixed(0)} min, sampled every ${SAMPLE_EVERY_S} s after ${WARM_UP_S / 60} min of warm-up.`,
    );
    while (performance.now() - t0 < total) {
      const due = Math.floor(((performance.now() - t0) / 1000) * RATE_PER_S);
      while (sent + skipped < due) {
        if (inFlight >= MAX_IN_FLIGHT) {
          skipped++;
          continue;
        }
        sent++;
        inFlight++;
        void step()
          .then((ok) => {
            if (!ok) failed++;
          })
          .catch(() => failed++)
          .finally(() => inFlight--);
      }
      const elapsed = performance.now() - t0;
      if (elapsed >= nextSample) {
        samples.push(await sample(backend, elapsed / 1000, sent));
        nextSample += SAMPLE_EVERY_S * 1000;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    while (inFlight > 0) await new Promise((r) => setTimeout(r, 20));
    samples.push(await sample(backend, (performance.now() - t0) / 1000, sent));
    printSamples(samples);
    console.log(
      `\n${sent} requests (${(sent / ((performance.now() - t0) / 1000)).toFixed(1)}/s), ${failed} answered ≥ 500 or failed, ${skipped} not sent (${MAX_IN_FLIGHT} already in flight).`,
    );
    const series: Array<[string, (s: Sample) => number]> = [
      ['backend process', (s) => s.backendMb],
      ['backend V8 heap after GC', (s) => s.heapMb],
      ['PostgreSQL', (s) => s.postgresMb],
      ['PostgREST', (s) => s.postgrestMb],
    ];
    for (const [name, pick] of series) console.log(verdict(name, samples.map(pick)));
  } finally {
    await backend.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
