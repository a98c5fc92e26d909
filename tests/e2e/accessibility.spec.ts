// Every screen scanned with axe: with JavaScript on and off (the two projects), in light and
// dark mode, and no serious or critical violation anywhere. A failure names the screen, the rule and
// the elements.
import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { Authenticator } from '../support/authenticator.ts';
import {
  boardOfTasks,
  expect,
  flash,
  hydrated,
  pendingInvitation,
  serviceRest,
  test,
  signInAs,
  uniqueEmail,
} from './support.ts';

const SCHEMES = ['light', 'dark'] as const;
// Twenty-odd scans of a second or two each, on a shared machine.
test.describe.configure({ timeout: 240_000 });

/**
 * The page axe scans. axe waits on timers, which never fire in a page without JavaScript, so in the
 * no-js project it scans a copy of the page's HTML as the server sent it, without its scripts, in a
 * page of its own that runs axe (and nothing of the app's).
 */
let scanner: Page | undefined;
async function scannable(page: Page, browser: Browser): Promise<Page> {
  if (test.info().project.use.javaScriptEnabled !== false) return page;
  const html = (await page.content())
    .replace(/<script\b[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, '');
  // Contexts a test opens take the project's options unless told otherwise.
  scanner ??= await (
    await browser.newContext({ javaScriptEnabled: true, viewport: page.viewportSize() })
  ).newPage();
  // The scanner runs scripts (axe needs them), so its stylesheets are read as a browser without them
  // reads them: what `@media (scripting: none)` hides stays hidden, and `.no-js-only` shows.
  await scanner.route('**/*.css', async (route) => {
    const response = await route.fetch();
    const css = (await response.text()).replace(/scripting:\s*(enabled|none)/g, (_, value: string) =>
      value === 'none' ? 'scripting: enabled' : 'scripting: none',
    );
    await route.fulfill({ response, body: css });
  });
  const url = page.url();
  await scanner.route(url, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await scanner.goto(url);
  await scanner.unroute(url);
  return scanner;
}
test.afterEach(async () => {
  await scanner?.context().close();
  scanner = undefined;
});

/** The serious and critical violations on the page as it is now, one line each. */
async function violations(page: Page): Promise<string[]> {
  // What the pointer last clicked stays hovered; the page at rest is what is scanned.
  await page.mouse.move(0, 0);
  const { violations: found } = await new AxeBuilder({ page }).analyze();
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 5)
          .map(
            (n) =>
              `${n.target.join(' ')}${n.failureSummary ? ` [${n.failureSummary.replace(/\s+/g, ' ')}]` : ''}`,
          )
          .join('; ')}`,
    );
}

/** Scans the page in both colour schemes; returns what it found, named by `screen`. */
async function scan(page: Page, screen: string): Promise<string[]> {
  await hydrated(page);
  const scanned = await scannable(page, page.context().browser() ?? fail());
  const found: string[] = [];
  for (const colorScheme of SCHEMES) {
    await scanned.emulateMedia({ colorScheme });
    for (const line of await violations(scanned)) found.push(`${screen} (${colorScheme}): ${line}`);
  }
  return found;
}

function fail(): never {
  throw new Error('the page has no browser');
}

test('the signed-out screens', async ({ page }) => {
  const found: string[] = [];
  const invited = await pendingInvitation(uniqueEmail('a11y-invited'));
  const screens: Array<[string, string]> = [
    ['landing', '/'],
    ['sign in', '/login'],
    ['sign in with a code', '/login/code'],
    ['sign up', '/signup'],
    ['forgot password', '/forgot-password'],
    ['reset password (no recovery session)', '/reset-password'],
    ['check your email', '/check-email?email=someone%40example.test'],
    ['email link interstitial', '/auth/confirm?token_hash=abc&type=signup'],
    ['invitation', `/invite/${randomUUID()}`],
    ['invitation, signed out', `/invite/${invited.token}`],
    ['sign up from an invitation', `/signup?invitation=${invited.token}`],
    ['unsubscribe (a link that is not valid)', `/unsubscribe/${randomUUID()}.${'0'.repeat(64)}`],
    ['404', '/no-such-page'],
  ];
  for (const [screen, url] of screens) {
    await page.goto(url);
    found.push(...(await scan(page, screen)));
  }
  // A form sent back with its message, and (checked in the browser, with JavaScript) a field's errors.
  await page.goto('/login');
  await hydrated(page);
  await page.getByLabel('Email', { exact: true }).fill('nobody@example.test');
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Email or password is incorrect.' })).toBeVisible();
  if (test.info().project.use.javaScriptEnabled !== false) {
    await page.getByLabel('Email', { exact: true }).fill('not-an-address');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Enter a valid email address.' })).toBeVisible();
  }
  found.push(...(await scan(page, 'sign in with errors')));
  expect(found).toEqual([]);
});

test('the workspace screens: workspaces, overview, board, task panel, list, members, labels, settings, search, views', async ({
  page,
}) => {
  const { owner, boardPath, workspaceId, projectId } = await boardOfTasks(8);
  // A shared saved view of the board, so that the sidebar lists it and its page is scanned.
  const [view] = await serviceRest<Array<{ id: string }>>('POST', 'saved_views', {
    workspace_id: workspaceId,
    project_id: projectId,
    owner_id: owner.id,
    name: 'Nothing urgent',
    query: { priority: 'none' },
    shared: true,
  });
  // A label, so that the task panel shows its labels' controls.
  await serviceRest('POST', 'labels', { workspace_id: workspaceId, name: 'Bug', color: 'red' });
  await signInAs(page, owner);
  const found: string[] = [];
  found.push(...(await scan(page, 'workspaces')));

  await page.goto(boardPath);
  await expect(page.getByRole('region', { name: 'Backlog' }).getByRole('listitem')).toHaveCount(2);
  found.push(...(await scan(page, 'board')));
  if (test.info().project.use.javaScriptEnabled !== false) {
    // What JavaScript adds: a card's menu, a column's new-task form, the list of shortcuts.
    await page.getByRole('button', { name: 'Actions for BAC-1' }).click();
    found.push(...(await scan(page, 'board, card menu open')));
    await page.keyboard.press('Escape');
    await page.getByRole('region', { name: 'Done' }).getByRole('button', { name: 'Add task' }).click();
    found.push(...(await scan(page, 'board, new-task form open')));
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    found.push(...(await scan(page, 'board, shortcuts')));
    await page.keyboard.press('Escape');
  }
  const board = page.url();
  const workspace = board.replace(/\/p\/.*$/, '');

  await page.getByRole('region', { name: 'To do' }).getByRole('link').first().click();
  await expect(
    page.getByRole('complementary').filter({ has: page.getByRole('link', { name: 'Close' }) }),
  ).toBeVisible();
  found.push(...(await scan(page, 'task panel')));
  if (test.info().project.use.javaScriptEnabled !== false) {
    await page.getByRole('button', { name: 'Edit labels' }).click();
    await expect(page.getByRole('checkbox', { name: 'Bug' })).toBeVisible();
    found.push(...(await scan(page, 'task panel, label picker open')));
    await page.keyboard.press('Escape');
  }

  const screens: Array<[string, string]> = [
    ['overview', workspace],
    ['members', `${workspace}/members`],
    ['labels', `${workspace}/labels`],
    ['settings', `${workspace}/settings`],
    ['project settings', `${new URL(board).pathname}/settings`],
    ['list', `${new URL(board).pathname}/list`],
    ['search', `${workspace}/search?q=Task`],
    ['saved view', `${new URL(board).pathname}/views/${view?.id}`],
    ['save a view', `${new URL(board).pathname}/views/new?priority=high`],
    ['a workspace that is not mine', `/w/not-mine-${randomUUID().slice(0, 8)}`],
  ];
  for (const [screen, url] of screens) {
    await page.goto(url);
    found.push(...(await scan(page, screen)));
  }
  expect(found).toEqual([]);
});

test('the account screens and two-step sign-in', async ({ page }) => {
  const { owner } = await boardOfTasks(1);
  await signInAs(page, owner);
  const found: string[] = [];
  for (const [screen, url] of [
    ['account', '/account'],
    ['account security', '/account/security'],
    ['notification settings', '/account/notifications'],
    ['inbox', '/inbox'],
    ['two-step verification', '/account/security/mfa'],
  ] as const) {
    await page.goto(url);
    found.push(...(await scan(page, screen)));
  }

  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  found.push(...(await scan(page, 'authenticator set-up')));
  const app = new Authenticator(await page.getByLabel('Or type this secret key into the app').inputValue());
  await page.getByLabel('Code', { exact: true }).fill(await app.nextCode());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(flash(page, 'Two-step verification is on.')).toBeVisible();

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/login');
  await hydrated(page);
  await page.getByLabel('Email', { exact: true }).fill(owner.email);
  await page.getByLabel('Password', { exact: true }).fill(owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/login\/mfa/);
  found.push(...(await scan(page, 'two-step sign-in')));
  expect(found).toEqual([]);
});
