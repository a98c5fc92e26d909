// A one-off measurement: the demo board's throughput with the framework patches in patches/ and
// without them, side by side in one run. Run after `remix build`:
//
//   npx remix build && npx tsx bench/framework-patches.ts [two]
//
// Two copies of the app are laid out in a scratch folder, each with the same build and a
// node_modules of links to this project's packages, except the packages the patches change and
// those that load them (so that Node, resolving from a real copy, finds the copy beside it): real
// copies in both, the patches taken back out of one with `patch -R`. Both apps run at once against
// one backend, and their rounds alternate (ABBA), so both see the same machine.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO, requestsPerSecond, signInCookie, startApp } from './app.ts';
import { startBenchBackend } from './backend.ts';
import { cpuMs } from './cpu.ts';

const projectRoot = path.resolve(import.meta.dirname, '..');
const modules = path.join(projectRoot, 'node_modules');

/**
 * Packages copied rather than linked: those the patches change, and every package on the way from
 * the app to them (a linked package resolves its own imports from this project's node_modules).
 */
const COPIED = [
  '@remix-run/react',
  '@remix-run/router',
  'react-router-dom',
  'react-router',
  '@remix-run/server-runtime',
  '@remix-run/node',
  '@remix-run/express',
  '@remix-run/serve',
];

/** The patches a side runs without (file names in patches/). */
type Removed = readonly string[];

function layOut(dir: string, removed: Removed): void {
  mkdirSync(path.join(dir, 'node_modules', '@remix-run'), { recursive: true });
  for (const entry of readdirSync(modules)) {
    if (entry === '@remix-run' || entry === '.bin' || COPIED.includes(entry)) continue;
    symlinkSync(path.join(modules, entry), path.join(dir, 'node_modules', entry));
  }
  for (const entry of readdirSync(path.join(modules, '@remix-run'))) {
    const name = `@remix-run/${entry}`;
    if (!COPIED.includes(name)) symlinkSync(path.join(modules, name), path.join(dir, 'node_modules', name));
  }
  for (const name of COPIED)
    cpSync(path.join(modules, name), path.join(dir, 'node_modules', name), { recursive: true });
  cpSync(path.join(projectRoot, 'build'), path.join(dir, 'build'), { recursive: true });
  cpSync(path.join(projectRoot, 'package.json'), path.join(dir, 'package.json'));
  for (const patch of removed) {
    execFileSync('patch', ['-R', '-p1', '--quiet', '-i', path.join(projectRoot, 'patches', patch)], {
      cwd: dir,
    });
  }
  const router = readFileSync(path.join(dir, 'node_modules/@remix-run/router/dist/router.cjs.js'), 'utf8');
  if (router.includes('rankedBranchesByTree') === removed.some((p) => p.startsWith('@remix-run+router')))
    throw new Error(`${dir}: not laid out as meant`);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** `-- two`: all patches against none only, twice the rounds. */
const TWO = process.argv[2] === 'two';
const ROUNDS = TWO ? 24 : 12;
const LOADS = 150;
const CONCURRENCY = 10;

const PATCHES = readdirSync(path.join(projectRoot, 'patches'));
const ROUTER = PATCHES.filter((p) => p.startsWith('@remix-run+router'));
const RENDER = PATCHES.filter((p) => !p.startsWith('@remix-run+router'));
/** The sides measured: all patches, none, and each of the two changes without the other. */
const SIDES: Record<string, Removed> = TWO
  ? { 'all three patches': [], 'no patch': PATCHES }
  : {
      'all three patches': [],
      'no patch': PATCHES,
      'router patch only': RENDER,
      'react + react-router-dom patches only': ROUTER,
    };

const scratch = mkdtempSync(path.join(tmpdir(), 'crewboard-patches-'));
const dataDir = path.join(scratch, 'data');
mkdirSync(dataDir);
// As root, PostgreSQL runs as `postgres` and must enter both.
chmodSync(scratch, 0o755);
chmodSync(dataDir, 0o755);
const backend = await startBenchBackend(dataDir, {
  AUTH_RATE_LIMIT_SIGN_IN: '1000000',
  AUTH_RATE_LIMIT_TOKEN_REFRESH: '1000000',
});
const names = Object.keys(SIDES);
const apps: Record<string, Awaited<ReturnType<typeof startApp>>> = {};
try {
  for (const [i, name] of names.entries()) {
    const dir = path.join(scratch, `side-${i}`);
    layOut(dir, SIDES[name] ?? []);
    apps[name] = await startApp(backend.apiUrl, backend.anonKey, backend.serviceRoleKey, dir);
  }
  const app = (name: string) => apps[name] as Awaited<ReturnType<typeof startApp>>;
  const cookies: Record<string, string> = {};
  for (const name of names) cookies[name] = await signInCookie(app(name).url, DEMO.email, DEMO.password);
  // Which build each process runs shows in the page: the patched @remix-run/react inlines the
  // route manifest as compact JSON, the package pretty-prints it.
  for (const name of names) {
    const html = await (
      await fetch(`${app(name).url}${DEMO.board}`, { headers: { Cookie: cookies[name] ?? '' } })
    ).text();
    const compact = html.includes('window.__remixManifest = {"');
    if (compact !== !(SIDES[name] ?? []).some((p) => p.startsWith('@remix-run+react')))
      throw new Error(`the app "${name}" does not run the build meant`);
  }
  const run = (name: string) =>
    requestsPerSecond(`${app(name).url}${DEMO.board}`, cookies[name] ?? '', LOADS, CONCURRENCY);
  // Warm-up: two untimed rounds each, so no side's JIT warm-up is counted.
  for (let i = 0; i < 2; i++) for (const name of names) await run(name);
  const rps: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts with another side and alternates direction, so no side always comes first.
    const shifted = [...names.slice(round % names.length), ...names.slice(0, round % names.length)];
    for (const name of round % 2 === 0 ? shifted : shifted.reverse()) {
      const pid = app(name).child.pid ?? 0;
      const before = cpuMs(pid);
      rps[name]?.push(await run(name));
      cpu[name]?.push((cpuMs(pid) - before) / LOADS);
    }
  }
  const base = rps[names[0] ?? ''] ?? [];
  console.log(`\nDemo board (${LOADS} loads at ${CONCURRENCY} connections a round, ${ROUNDS} rounds each)\n`);
  for (const name of names) {
    const own = rps[name] ?? [];
    const ratio = mean(own) / mean(base);
    console.log(
      `${name}: mean ${mean(own).toFixed(1)} req/s (median ${median(own).toFixed(1)}), ` +
        `${ratio.toFixed(3)} × all patches (${((ratio - 1) * 100).toFixed(1)} %), ` +
        `app CPU ${mean(cpu[name] ?? []).toFixed(2)} ms a load\n` +
        `  rounds: ${own.map((r) => r.toFixed(1)).join(', ')}\n` +
        `  each round against all patches: ${own.map((r, i) => (r / (base[i] ?? NaN)).toFixed(3)).join(', ')}`,
    );
  }
} finally {
  for (const name of names) apps[name]?.child.kill('SIGTERM');
  await backend.stop();
  rmSync(scratch, { recursive: true, force: true });
}
