// "Reconnecting…" is for a connection really lost: a board's first join (which may go through a
// refused attempt and a retry) never shows it, and a realtime server that stays unreachable does,
// after a moment, until it is back.
import type { WebSocketRoute } from '@playwright/test';
import { OUTAGE_GRACE_MS } from '../../app/components/live.tsx';
import type { Page } from '@playwright/test';
import { boardOfTasks, expect, signInAs, test } from './support.ts';

/** Records every state the board header passes through, from the first render on. */
async function recordLiveStates(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { liveStates: seen });
    new MutationObserver(() => {
      const state = document.querySelector('header[data-live]')?.getAttribute('data-live');
      if (state && seen.at(-1) !== state) seen.push(state);
    }).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-live'],
    });
  });
  return () => page.evaluate(() => (window as unknown as { liveStates: string[] }).liveStates);
}

test('a board load never says it is reconnecting', async ({ page }) => {
  const { owner, boardPath } = await boardOfTasks(2);
  await signInAs(page, owner);
  const states = await recordLiveStates(page);
  await page.goto(boardPath);
  await expect(page.locator('header[data-live]')).toHaveAttribute('data-live', 'live');
  await page.waitForTimeout(OUTAGE_GRACE_MS + 500);
  expect(await states()).toEqual(['connecting', 'live']);
});

test('a realtime server that stays away is said, after a moment', async ({ page }) => {
  const { owner, boardPath } = await boardOfTasks(2);
  await signInAs(page, owner);
  const states = await recordLiveStates(page);
  // The realtime socket passes through a route the test can cut (and refuse while cut).
  let cut = false;
  const sockets: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/realtime\/v1\/websocket/, async (ws) => {
    if (cut) return ws.close();
    ws.connectToServer();
    sockets.push(ws);
  });
  const header = page.locator('header[data-live]');
  const warning = page.getByText(/Reconnecting…/);

  await page.goto(boardPath);
  await expect(header).toHaveAttribute('data-live', 'live');
  // Past the grace period, nothing was ever said about the connection.
  await page.waitForTimeout(OUTAGE_GRACE_MS + 500);
  expect(await states()).not.toContain('interrupted');
  await expect(warning).toHaveCount(0);

  cut = true;
  await Promise.all(sockets.map((ws) => ws.close()));
  // A second without the server is not yet an outage…
  await page.waitForTimeout(1_000);
  await expect(warning).toHaveCount(0);
  // …but one that lasts is said.
  await expect(warning).toBeVisible({ timeout: 10_000 });
  await expect(header).toHaveAttribute('data-live', 'interrupted');

  cut = false;
  await expect(header).toHaveAttribute('data-live', 'live', { timeout: 30_000 });
  await expect(warning).toHaveCount(0);
});
