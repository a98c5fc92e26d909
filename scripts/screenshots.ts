// `npm run screenshots`: every screen of the app at 1440 × 900 and 390 × 844, in light and dark, as
// PNGs in docs/screenshots/ (`board-1440-light.png`). It runs the stack the e2e tests run
// (tests/e2e/server.ts: a backend of its own, seeded with the demo data, and the production build)
// on free ports, signs in as the demo owner and walks the app by its links, so it follows the
// app's addresses wherever they go.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { freePort } from '../emulator/lib/net.ts';

const projectRoot = path.resolve(import.meta.dirname, '..');
const outDir = path.join(projectRoot, 'docs', 'screenshots');
// A fresh database every run, so the pictures show the seed and nothing a test left behind.
const dataDir = '.data/screenshots';

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;
const SCHEMES = ['light', 'dark'] as const;
/** `npm run screenshots -- board task`: those screens only. */
const only = process.argv.slice(2);

interface Screen {
  name: string;
  /** Signed in as the demo owner, or not. */
  signedIn: boolean;
  /** Brings the page to the screen, from a blank page. */
  open: (page: Page) => Promise<void>;
}

/** The board of the demo's first project, reached as a person would: by the sidebar's link. */
async function openBoard(page: Page) {
  await page.goto('/w/northwind');
  // On a phone the sidebar is a menu: its links are there, just closed away.
  const projects = page.getByRole('navigation', { name: 'Projects', includeHidden: true });
  const board = projects.getByRole('link', { name: /Website relaunch/, includeHidden: true });
  await page.goto((await board.getAttribute('href')) ?? '');
  await page.getByRole('heading', { level: 1, name: /Website relaunch/ }).waitFor();
  // Connected to live updates, so the board does not say it is reconnecting.
  await page
    .locator('[data-live="live"]')
    .waitFor({ timeout: 10_000 })
    .catch(() => console.warn('the board did not connect to live updates within 10 s'));
}

const SCREENS: Screen[] = [
  { name: 'landing', signedIn: false, open: (p) => goto(p, '/') },
  { name: 'login', signedIn: false, open: (p) => goto(p, '/login') },
  { name: 'login-code', signedIn: false, open: (p) => goto(p, '/login/code') },
  { name: 'signup', signedIn: false, open: (p) => goto(p, '/signup') },
  { name: 'forgot-password', signedIn: false, open: (p) => goto(p, '/forgot-password') },
  { name: 'reset-password', signedIn: false, open: (p) => goto(p, '/reset-password') },
  {
    name: 'check-email',
    signedIn: false,
    open: (p) => goto(p, '/check-email?email=ada%40demo.crewboard.test'),
  },
  { name: 'not-found', signedIn: false, open: (p) => goto(p, '/no-such-page') },
  { name: 'workspaces', signedIn: true, open: (p) => goto(p, '/w') },
  { name: 'overview', signedIn: true, open: (p) => goto(p, '/w/northwind') },
  { name: 'board', signedIn: true, open: openBoard },
  {
    name: 'task',
    signedIn: true,
    open: async (page) => {
      await openBoard(page);
      await page.locator('li[data-task-id] > a').first().click();
      await page.waitForURL(/\/t\/\d+$/);
      await page
        .getByRole('link', { name: 'Close' })
        .or(page.getByRole('button', { name: 'Close' }))
        .first()
        .waitFor();
    },
  },
  {
    name: 'list',
    signedIn: true,
    open: async (page) => {
      await openBoard(page);
      await page.goto(`${new URL(page.url()).pathname}/list?sort=due&dir=asc`);
      await page.getByRole('table').waitFor();
    },
  },
  {
    name: 'import',
    signedIn: true,
    open: async (page) => {
      await openBoard(page);
      await page.goto(`${new URL(page.url()).pathname}/settings/import`);
    },
  },
  { name: 'members', signedIn: true, open: (p) => goto(p, '/w/northwind/members') },
  { name: 'settings', signedIn: true, open: (p) => goto(p, '/w/northwind/settings') },
  { name: 'search', signedIn: true, open: (p) => goto(p, '/w/northwind/search?q=launch') },
  { name: 'workspace-not-found', signedIn: true, open: (p) => goto(p, '/w/no-such-workspace') },
  { name: 'account', signedIn: true, open: (p) => goto(p, '/account') },
  { name: 'account-security', signedIn: true, open: (p) => goto(p, '/account/security') },
  { name: 'account-mfa', signedIn: true, open: (p) => goto(p, '/account/security/mfa') },
  { name: 'account-notifications', signedIn: true, open: (p) => goto(p, '/account/notifications') },
  { name: 'inbox', signedIn: true, open: (p) => goto(p, '/inbox') },
];

async function goto(page: Page, url: string) {
  await page.goto(url);
}

/** tests/e2e/server.ts on free ports, with its data under `dataDir`; resolves once the app answers. */
async function startStack(): Promise<{ baseURL: string; stop: () => Promise<void> }> {
  rmSync(path.join(projectRoot, dataDir), { recursive: true, force: true });
  const port = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', path.join('tests', 'e2e', 'server.ts')], {
    cwd: projectRoot,
    env: { ...process.env, E2E_PORT: String(port), E2E_DATA_DIR: dataDir, E2E_LIMITS_PORT: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const baseURL = `http://localhost:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error('the stack stopped before the app answered');
    const up = await fetch(`${baseURL}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`${baseURL} did not answer within 120 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseURL,
    stop: async () => {
      server.kill('SIGTERM');
      await exited;
    },
  };
}

async function shoot(browser: Browser, baseURL: string) {
  mkdirSync(outDir, { recursive: true });
  for (const viewport of VIEWPORTS)
    for (const colorScheme of SCHEMES) {
      for (const signedIn of [false, true]) {
        const context = await browser.newContext({ baseURL, viewport, colorScheme });
        const page = await context.newPage();
        if (signedIn && SCREENS.some((s) => s.signedIn && (!only.length || only.includes(s.name)))) {
          await page.goto('/login');
          await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
          await page.getByLabel('Email', { exact: true }).fill('ada@demo.crewboard.test');
          await page.getByLabel('Password', { exact: true }).fill('crewboard-demo');
          await page.getByRole('button', { name: 'Sign in' }).click();
          await page.waitForURL(/\/w$/);
        }
        const screens = SCREENS.filter(
          (s) => s.signedIn === signedIn && (!only.length || only.includes(s.name)),
        );
        if (!screens.length) {
          await context.close();
          continue;
        }
        for (const screen of screens) {
          await screen.open(page);
          await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
          // Fonts and images settled, the caret and transitions out of the picture.
          await page.evaluate(() => document.fonts.ready);
          const file = `${screen.name}-${viewport.width}-${colorScheme}.png`;
          await page.screenshot({ path: path.join(outDir, file), animations: 'disabled', caret: 'hide' });
          console.log(`docs/screenshots/${file}`);
        }
        await context.close();
      }
    }
}

// Debian's Chromium when it is there, as in playwright.config.ts; Playwright's own browser otherwise.
const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const stack = await startStack();
const browser = await chromium.launch({
  executablePath: systemChromium,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  await shoot(browser, stack.baseURL);
} finally {
  await browser.close();
  await stack.stop();
}
