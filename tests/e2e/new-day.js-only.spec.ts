// A board left open overnight: its due labels ("due today") and due filters are the loader's day in
// the reader's time zone, so when that day is over the board loads its data again, once. The test
// cannot wait for midnight, and moving the browser's clock far also moves its session's expiry: it
// gives the board a day that is not the browser's instead, from a time-zone cookie far from the
// browser's own (UTC+14 against UTC−12: always another date).
import { boardOfTasks, expect, hydrated, signInAs, test } from './support.ts';
import { TIME_ZONE_COOKIE } from '../../app/utils/time-zone.ts';

test.use({ timezoneId: 'Etc/GMT+12' });

test('a board whose day is over loads its data again, once; one of today does not', async ({ page }) => {
  await page.clock.install();
  // Minutes run on the page's clock in jumps, which would also time out the Realtime socket's
  // heartbeats, and a board reloads when its socket comes back: here Realtime never answers.
  await page.routeWebSocket(/\/realtime\/v1\/websocket/, () => undefined);
  const { owner, boardPath } = await boardOfTasks(2);
  await signInAs(page, owner);
  let loads = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).searchParams.get('_data') === 'routes/w.$workspace.p.$project') loads++;
  });
  const minutes = (n: number) => page.clock.runFor(n * 60_000 + 1_000);

  // Loaded for the browser's own day: minutes pass, nothing is loaded.
  await page.goto(boardPath);
  await hydrated(page);
  await minutes(3);
  expect(loads).toBe(0);

  // Loaded for another day (the cookie's zone): at the next minute's check, loaded again, in the
  // browser's zone, which the page has put in the cookie; then never again that day.
  const { hostname } = new URL(page.url());
  await page
    .context()
    .addCookies([{ name: TIME_ZONE_COOKIE, value: 'Etc/GMT-14', domain: hostname, path: '/' }]);
  await page.goto(boardPath);
  await hydrated(page);
  expect(loads).toBe(0);
  await minutes(1);
  await expect.poll(() => loads).toBe(1);
  await minutes(5);
  expect(loads).toBe(1);
});
