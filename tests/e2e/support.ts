// What e2e tests share: the `test` every spec uses (it fails on what the browser reports), the
// stack's addresses, unique users, and mail read from the mailbox API.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  test as base,
  expect,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { projectPath } from '../../app/utils/projects.ts';
import { ANON_KEY } from '../../emulator/keys.ts';

export { expect };
// Tests build the app's addresses the way the app does.
export { projectPath, taskPath, taskRef } from '../../app/utils/projects.ts';

/**
 * Chromium's line for a response with an error status. On a document or a data request that status
 * is the app's answer (a 404 page, a form's 400), which the test asserts; on a script, a stylesheet,
 * an image or a font it is a broken page.
 */
const ERROR_STATUS_LINE = /^Failed to load resource: the server responded with a status of \d{3}/;

interface BrowserProblems {
  /** Console errors the test expects (a lost connection while offline, say); anything else fails it. */
  allowedConsoleErrors: RegExp[];
}

/** An account of the test's own: its password signs in. */
export interface Account {
  id: string;
  email: string;
  password: string;
}

interface Fixtures {
  /** Checks what the browser reported after every test (below). */
  browserProblems: void;
  /**
   * A fresh confirmed account, signed in on `page`, which is left on the workspace list (/w),
   * hydrated: for tests of what comes after signing in. Tests of signing in use the form (`signIn`).
   */
  signedIn: Account;
}

/**
 * Every spec's `test`: it fails when any page of the test, in any of its browser contexts, throws an
 * uncaught error, violates the Content-Security-Policy, or logs a console error. Chromium reports CSP
 * violations as console errors, with JavaScript on or off. Its `signedIn` fixture signs a new
 * account in.
 */
export const test = base.extend<BrowserProblems & Fixtures>({
  signedIn: async ({ page }, use, testInfo) => {
    // The spec's name goes into the address, so a row in the backend says which test made it.
    const tag = path.basename(testInfo.file, '.spec.ts').replace(/[^a-z0-9]+/gi, '-');
    const account = await createConfirmedUser(tag);
    await signInAs(page, account);
    await use(account);
  },
  allowedConsoleErrors: [[], { option: true }],
  browserProblems: [
    async ({ context, browser, allowedConsoleErrors }, use) => {
      const problems: string[] = [];
      const statusLines: Array<{ url: string; text: string }> = [];
      const answeredWithError = new Set<string>();
      const watch = (watched: BrowserContext) => {
        watched.on('weberror', (error) => problems.push(`uncaught ${error.error().stack ?? error.error()}`));
        watched.on('response', (response) => {
          const type = response.request().resourceType();
          if (response.status() >= 400 && (type === 'document' || type === 'fetch'))
            answeredWithError.add(response.url());
        });
        watched.on('console', (message) => {
          if (message.type() !== 'error') return;
          const text = message.text();
          const where = message.location().url;
          if (ERROR_STATUS_LINE.test(text)) statusLines.push({ url: where, text });
          else if (/Content Security Policy/.test(text)) problems.push(`CSP violation on ${where}: ${text}`);
          else if (!allowedConsoleErrors.some((allowed) => allowed.test(text)))
            problems.push(`console error on ${where}: ${text}`);
        });
      };
      watch(context);
      // Contexts a test opens itself (a second person, a second device) are watched the same way.
      const newContext = browser.newContext.bind(browser);
      const watchedBrowser: Pick<Browser, 'newContext'> = browser;
      watchedBrowser.newContext = async (...args) => {
        const opened = await newContext(...args);
        watch(opened);
        return opened;
      };
      try {
        await use();
      } finally {
        watchedBrowser.newContext = newContext;
      }
      for (const { url, text } of statusLines)
        if (!answeredWithError.has(url)) problems.push(`a subresource failed: ${url}: ${text}`);
      expect(problems, 'what the browser reported').toEqual([]);
    },
    { auto: true },
  ],
});

interface Endpoints {
  appUrl: string;
  apiUrl: string;
  mailUrl: string;
  serviceRoleKey: string;
}

export function endpoints(): Endpoints {
  return JSON.parse(
    readFileSync(
      path.resolve(import.meta.dirname, '../..', process.env.E2E_DATA_DIR ?? '.data/e2e', 'endpoints.json'),
      'utf8',
    ),
  ) as Endpoints;
}

const DAY_MS = 86_400_000;

/** The calendar date `offset` days from today, in UTC (the server's zone until a browser tells it another). */
export const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

/**
 * For a test that writes dates relative to today ("due two days ago") and then reads what the server
 * says of them ("2 days overdue", "Yesterday"): it must not run across midnight UTC, when today
 * changes between the rows it wrote and the page it reads. Within `margin` of midnight, this waits
 * for midnight to pass first, and gives the test that much more time.
 */
export async function clearOfMidnight(margin = 120_000): Promise<void> {
  const untilMidnight = DAY_MS - (Date.now() % DAY_MS);
  if (untilMidnight > margin) return;
  const wait = untilMidnight + 1_000;
  test.info().setTimeout(test.info().timeout + wait);
  await new Promise((resolve) => setTimeout(resolve, wait));
}

export const uniqueEmail = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@example.test`;

interface Mail {
  ID: string;
  Subject: string;
  From: { Name: string; Address: string };
  HTML: string;
  Text: string;
}

/** The newest email to `address`, waiting briefly for it to arrive. */
export async function latestMail(address: string, subject?: RegExp): Promise<Mail> {
  const { mailUrl } = endpoints();
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${mailUrl}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`);
    const { messages } = (await res.json()) as { messages: Array<{ ID: string; Subject: string }> };
    const found = messages.find((m) => !subject || subject.test(m.Subject));
    if (found) return (await (await fetch(`${mailUrl}/api/v1/message/${found.ID}`)).json()) as Mail;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${address}`);
}

export function linkIn(mail: Mail, contains: string): string {
  const link = [...mail.HTML.matchAll(/href="([^"]+)"/g)]
    .map((m) => (m[1] ?? '').replaceAll('&amp;', '&'))
    .find((l) => l.includes(contains));
  if (!link) throw new Error(`no link containing ${contains} in "${mail.Subject}"`);
  return link;
}

export function codeIn(mail: Mail): string {
  const code = /\b(\d{6})\b/.exec(mail.Text)?.[1];
  if (!code) throw new Error(`no code in "${mail.Subject}"`);
  return code;
}

/** A confirmed account made through the admin API, for tests that start signed out. */
export async function createConfirmedUser(
  tag: string,
  password = 'correct-horse-battery',
): Promise<{ id: string; email: string; password: string }> {
  const { apiUrl, serviceRoleKey } = endpoints();
  const email = uniqueEmail(tag);
  const res = await fetch(`${apiUrl}/auth/v1/admin/users`, {
    method: 'POST',
    headers: {
      apikey: serviceRoleKey,
      Authorization: `Bearer ${serviceRoleKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ email, password, email_confirm: true }),
  });
  expect(res.status).toBe(200);
  const { id } = (await res.json()) as { id: string };
  return { id, email, password };
}

/**
 * With JavaScript on, waits until React has hydrated the page (root.tsx marks <html>): a field filled
 * before that is put back to the server's value, so a test that types first can lose its input.
 */
export async function hydrated(page: Page): Promise<void> {
  if (test.info().project.use.javaScriptEnabled === false) return;
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
}

/**
 * Opens a board column's new-task form: with JavaScript it is behind the column's "Add task" button;
 * without, every column shows it. An open form (one just used, or whose create was
 * refused) is left open.
 */
export async function openNewTask(column: Locator): Promise<void> {
  if (test.info().project.use.javaScriptEnabled === false) return;
  await hydrated(column.page());
  if (await column.getByLabel('Title').isVisible()) return;
  await column.getByRole('button', { name: 'Add task' }).click();
  await expect(column.getByLabel('Title')).toBeFocused();
}

/**
 * A new workspace of the signed-in user, at `<prefix>-<time>`, with a project "Board" (key BOA) whose
 * board is then open; its address's slug.
 */
export async function newBoard(page: Page, prefix: string): Promise<string> {
  await page.goto('/w');
  const slug = `${prefix}-${Date.now().toString(36)}`;
  await page.getByLabel('Workspace name').fill(`${prefix} test`);
  await page.getByLabel('Address').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByLabel('Project name').fill('Board');
  await page.getByRole('button', { name: 'Create project' }).click();
  return slug;
}

/** The one-time message a redirect left (root.tsx's toast), as assistive technology finds it. */
export function flash(page: Page, message: string) {
  return page.getByRole('status').filter({ hasText: message });
}

/**
 * Expects `message` in the toast and nowhere else in the address, then reloads: a flash is shown once.
 * Returns after the reload, on the same page.
 */
export async function expectFlashOnce(page: Page, message: string): Promise<void> {
  await expect(flash(page, message)).toBeVisible();
  expect(new URL(page.url()).search).not.toMatch(/deleted|saved|avatar|password|changed|enrolled|removed/);
  await page.reload();
  await expect(flash(page, message)).toHaveCount(0);
}

/**
 * Signs `page`'s browser in as `account` with the sign-in form's own POST, as a browser without
 * JavaScript sends it (the context keeps the session's cookies), then opens the workspace list and
 * waits for it to hydrate. Quicker than filling the form; `signIn` fills it.
 */
export async function signInAs(page: Page, account: { email: string; password: string }): Promise<void> {
  const { origin } = new URL(test.info().project.use.baseURL ?? endpoints().appUrl);
  const res = await page.request.post(`${origin}/login`, {
    form: { email: account.email, password: account.password, next: '/w', website: '' },
    headers: { Origin: origin, 'Sec-Fetch-Site': 'same-origin' },
    maxRedirects: 0,
  });
  expect(res.status(), `signing in ${account.email}: ${await res.text()}`).toBe(302);
  expect(res.headers().location).toBe('/w');
  await page.goto('/w');
  await expect(page).toHaveURL(/\/w$/);
  await hydrated(page);
}

/** Signs in by filling the sign-in form, as a person does; lands on the workspace list. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await hydrated(page);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/w$/);
}

/** Adds a user to a workspace as the service role would: setup for tests about what members do. */
export async function addMember(slug: string, userId: string, role: 'admin' | 'member' | 'viewer') {
  const { apiUrl, serviceRoleKey } = endpoints();
  const headers = {
    apikey: serviceRoleKey,
    Authorization: `Bearer ${serviceRoleKey}`,
    'content-type': 'application/json',
  };
  const found = await fetch(`${apiUrl}/rest/v1/workspaces?select=id&slug=eq.${slug}`, { headers });
  const workspaceId = ((await found.json()) as Array<{ id: string }>)[0]?.id;
  expect(workspaceId).toBeTruthy();
  const res = await fetch(`${apiUrl}/rest/v1/workspace_members`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ workspace_id: workspaceId, user_id: userId, role }),
  });
  expect(res.status).toBe(201);
}

/**
 * A signed-up owner with a workspace holding one project of `count` tasks, spread over the four
 * columns in turn (task n goes to column n mod 4), made through the service role: setup for tests
 * about long boards. `fields` adds to task n's row (priority, due_date, assignee_id: the owner's id is
 * passed). Returns the owner, the board's address and the ids behind it.
 */
export async function boardOfTasks(
  count: number,
  fields: (n: number, ownerId: string) => Record<string, unknown> = () => ({}),
): Promise<{
  owner: { id: string; email: string; password: string };
  boardPath: string;
  workspaceId: string;
  projectId: string;
  /** The ids of its columns (a new project's statuses), by the names they once had. */
  columns: { backlog: string; todo: string; in_progress: string; done: string };
}> {
  const { apiUrl, serviceRoleKey } = endpoints();
  const headers = {
    apikey: serviceRoleKey,
    Authorization: `Bearer ${serviceRoleKey}`,
    'content-type': 'application/json',
    Prefer: 'return=representation',
  };
  const post = async <T>(table: string, body: unknown): Promise<T> => {
    const res = await fetch(`${apiUrl}/rest/v1/${table}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    expect(res.status, `${table}: ${await res.clone().text()}`).toBe(201);
    return (await res.json()) as T;
  };
  const owner = await createConfirmedUser('long-board');
  const slug = `long-${randomUUID().slice(0, 8)}`;
  const [workspace] = await post<Array<{ id: string }>>('workspaces', {
    name: 'Long board',
    slug,
    created_by: owner.id,
  });
  const workspaceId = workspace?.id ?? '';
  await post('workspace_members', { workspace_id: workspaceId, user_id: owner.id, role: 'owner' });
  const [project] = await post<Array<{ id: string; key: string }>>('projects', {
    workspace_id: workspaceId,
    name: 'Backlog grooming',
  });
  const projectId = project?.id ?? '';
  const statusRes = await fetch(
    `${apiUrl}/rest/v1/project_statuses?select=id&project_id=eq.${projectId}&order=position`,
    { headers },
  );
  const statuses = ((await statusRes.json()) as Array<{ id: string }>).map((s) => s.id);
  const [backlog = '', todo = '', inProgress = '', done = ''] = statuses;
  // One request per 250 tasks, in order, so numbers follow the titles.
  for (let start = 1; start <= count; start += 250) {
    const rows = [];
    for (let n = start; n < Math.min(start + 250, count + 1); n++)
      rows.push({
        workspace_id: workspaceId,
        project_id: projectId,
        title: `Task ${n}`,
        status_id: statuses[n % 4],
        ...fields(n, owner.id),
      });
    await post('tasks', rows);
  }
  return {
    owner,
    boardPath: projectPath(slug, project?.key ?? ''),
    workspaceId,
    projectId,
    columns: { backlog, todo, in_progress: inProgress, done },
  };
}

/** Rows read or written through the service role (test setup only); returns them. */
export async function serviceRest<T = unknown>(
  method: 'GET' | 'POST' | 'PATCH',
  pathAndQuery: string,
  body?: unknown,
): Promise<T> {
  const { apiUrl, serviceRoleKey } = endpoints();
  const res = await fetch(`${apiUrl}/rest/v1/${pathAndQuery}`, {
    method,
    headers: {
      apikey: serviceRoleKey,
      Authorization: `Bearer ${serviceRoleKey}`,
      'content-type': 'application/json',
      Prefer: 'return=representation',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.ok, `${pathAndQuery}: ${await res.clone().text()}`).toBe(true);
  return (await res.json()) as T;
}

/** A project's statuses as its settings list them, top to bottom (each row a group named by it). */
export function statusNames(page: Page): Promise<Array<string | null>> {
  return page
    .getByRole('region', { name: 'Statuses' })
    .getByRole('group')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('aria-label')));
}

/**
 * An open invitation of `email`, as a member, to a new workspace "Team" of a new owner, made through
 * the service role as create_invitation makes it (the database keeps the token's SHA-256 only):
 * setup for tests of the invitation's pages. Returns its token and the workspace's address.
 */
export async function pendingInvitation(email: string): Promise<{ token: string; slug: string }> {
  const owner = await createConfirmedUser('inviter');
  const slug = `team-${randomUUID().slice(0, 8)}`;
  const [workspace] = await serviceRest<Array<{ id: string }>>('POST', 'workspaces', {
    name: 'Team',
    slug,
    created_by: owner.id,
  });
  await serviceRest('POST', 'workspace_members', {
    workspace_id: workspace?.id,
    user_id: owner.id,
    role: 'owner',
  });
  const token = randomBytes(32).toString('hex');
  await serviceRest('POST', 'invitations', {
    workspace_id: workspace?.id,
    email,
    role: 'member',
    invited_by: owner.id,
    token_hash: createHash('sha256').update(token).digest('hex'),
  });
  return { token, slug };
}

/** An access token for `account`, as supabase-js gets one (password grant): to act as them over REST. */
export async function accessTokenOf(account: { email: string; password: string }): Promise<string> {
  const { apiUrl } = endpoints();
  const res = await fetch(`${apiUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** `pathAndQuery` of the REST API as `token`'s person: row-level security decides, as for the app. */
export async function restAs<T = unknown>(
  token: string,
  method: 'POST' | 'PATCH',
  pathAndQuery: string,
  body: unknown,
): Promise<T> {
  const { apiUrl } = endpoints();
  const res = await fetch(`${apiUrl}/rest/v1/${pathAndQuery}`, {
    method,
    headers: {
      apikey: ANON_KEY,
      Authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      Prefer: 'return=representation',
    },
    body: JSON.stringify(body),
  });
  expect(res.ok, `${pathAndQuery}: ${await res.clone().text()}`).toBe(true);
  return (await res.json()) as T;
}
