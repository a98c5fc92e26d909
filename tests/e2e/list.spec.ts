import {
  createConfirmedUser,
  addMember,
  boardOfTasks,
  day,
  expect,
  hydrated,
  serviceRest,
  signInAs,
  test,
} from './support.ts';

test.use({ timezoneId: 'UTC' });

// The list view, with JavaScript and without: sorted by a column's header either way, filtered by the
// board's filters, three tasks moved to Done in one bulk edit, a task opened over the list (and moved
// from its panel without JavaScript); a viewer's bulk edit changes nothing, and says so.
test('sort, filter and bulk-edit the list; a viewer changes nothing', async ({
  page,
  browser,
  javaScriptEnabled,
}) => {
  // Task n sits in column n mod 4: 1 and 5 "To do", 2 and 6 "In progress", 3 "Done", 4 "Backlog".
  const due: Record<number, string> = { 1: day(5), 2: day(2), 4: day(9), 6: day(2) };
  const { owner, boardPath, columns } = await boardOfTasks(6, (n) => ({
    due_date: due[n] ?? null,
    priority: n % 2 === 0 ? 'high' : 'none',
  }));
  const listPath = `${boardPath}/list`;
  await signInAs(page, owner);
  await page.goto(listPath);
  await hydrated(page);
  const titles = page.locator('tbody tr a[data-row-link]');
  const ref = (n: number) => new RegExp(`^Task ${n}$`);
  await expect(titles).toHaveText([1, 2, 3, 4, 5, 6].map(ref));

  // By due date, soonest first, then latest first: missing dates last both ways, ties by number.
  await page.getByRole('columnheader', { name: 'Due' }).getByRole('link').click();
  await expect(page).toHaveURL(/sort=due&dir=asc/);
  await expect(titles).toHaveText([2, 6, 1, 4, 3, 5].map(ref));
  await expect(page.getByRole('columnheader', { name: /Due/ })).toHaveAttribute('aria-sort', 'ascending');
  await page.getByRole('columnheader', { name: /Due/ }).getByRole('link').click();
  await expect(page).toHaveURL(/sort=due&dir=desc/);
  await expect(titles).toHaveText([4, 1, 6, 2, 5, 3].map(ref));

  // The board's filters, in the same parameters; the sort stays.
  const filters = page.getByRole('search', { name: 'Filter tasks' });
  await filters.getByLabel('Priority').selectOption('high');
  if (!javaScriptEnabled) await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/priority=high/);
  await expect(page).toHaveURL(/sort=due&dir=desc/);
  await expect(titles).toHaveText([4, 6, 2].map(ref));
  await expect(page.getByText('3 of 6 tasks match')).toBeVisible();

  // Three tasks to Done at once.
  for (const n of [2, 4, 6]) await page.getByRole('checkbox', { name: `Tick BAC-${n}` }).check();
  const bulk = page.getByRole('group', { name: 'Change the ticked tasks' });
  await bulk.getByLabel('Status').selectOption({ label: 'Done' });
  await bulk.getByRole('button', { name: 'Apply to ticked tasks' }).click();
  await expect(page.getByRole('status').filter({ hasText: '3 tasks changed.' })).toBeVisible();
  const rows = page.locator('tbody tr');
  await expect(rows.filter({ hasText: 'Done' })).toHaveCount(3);
  const saved = await serviceRest<Array<{ number: number; status_id: string }>>(
    'GET',
    `tasks?select=number,status_id&status_id=eq.${columns.done}&order=number`,
  );
  expect(saved.map((t) => t.number)).toEqual([2, 3, 4, 6]);

  // A task opens over the list, which stays behind it; closing it keeps the list's address.
  await titles.first().click();
  const panel = page.getByRole('complementary', { name: 'Task BAC-4' });
  await expect(panel).toBeVisible();
  await expect(page).toHaveURL(/\/list\/t\/4\?/);
  await expect(titles).toHaveCount(3);
  if (!javaScriptEnabled) {
    // Without JavaScript the panel's move form moves it, and comes back to the panel over the list.
    await panel.getByLabel('Move BAC-4 to').selectOption({ label: 'In progress' });
    await panel.getByRole('button', { name: 'Move', exact: true }).click();
    await expect(page).toHaveURL(/\/list\/t\/4\?/);
    await expect(panel).toBeVisible();
    await expect(rows.filter({ hasText: 'BAC-4' })).toContainText('In progress');
  }
  await panel.getByRole('link', { name: 'Close' }).click();
  await expect(page).toHaveURL(new RegExp(`${listPath}\\?.*priority=high`));

  // The switch to the board keeps the filters.
  await page.getByRole('navigation', { name: 'View' }).getByRole('link', { name: 'Board' }).click();
  await expect(page).toHaveURL(new RegExp(`${boardPath}\\?priority=high$`));

  // A viewer: no bulk edit offered, and one sent anyway changes nothing and says so.
  const viewer = await createConfirmedUser('list-viewer');
  await addMember(boardPath.split('/')[2] ?? '', viewer.id, 'viewer');
  const viewerPage = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await signInAs(viewerPage, viewer);
  await viewerPage.goto(listPath);
  await expect(viewerPage.locator('tbody tr')).toHaveCount(6);
  await expect(viewerPage.getByRole('checkbox')).toHaveCount(0);
  const [one] = await serviceRest<Array<{ id: string }>>(
    'GET',
    `tasks?select=id&number=eq.1&status_id=eq.${columns.todo}`,
  );
  const sent = await viewerPage.request.post(listPath, {
    form: { intent: 'bulk-edit', task: one?.id ?? '', status: columns.done },
    headers: { Origin: new URL(viewerPage.url()).origin },
  });
  expect(sent.status()).toBe(200);
  expect(await sent.text()).toContain('Nothing was changed: you may not change that task.');
  const after = await serviceRest<Array<{ status_id: string }>>(
    'GET',
    `tasks?select=status_id&id=eq.${one?.id}`,
  );
  expect(after[0]?.status_id).toBe(columns.todo);
  await viewerPage.context().close();
});

// On a phone the table keeps the key and the title; the rest of a row is said under its title, the
// sort is a choice above the rows, and with JavaScript the bulk edit's fields show once a task is
// ticked (without, always: nothing could reveal them).
test('on a phone: a row says its status under its title, the sort is a choice, the bulk edit waits for a tick', async ({
  page,
  javaScriptEnabled,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { owner, boardPath } = await boardOfTasks(3, (n) => ({
    due_date: n === 2 ? day(-1) : null,
    priority: n === 1 ? 'high' : 'none',
  }));
  await signInAs(page, owner);
  await page.goto(`${boardPath}/list`);
  await hydrated(page);
  const rows = page.locator('tbody tr');
  await expect(rows.nth(0)).toContainText('Task 1');
  await expect(rows.nth(0)).toContainText('To do');
  await expect(rows.nth(0)).toContainText('High priority');
  await expect(rows.nth(1)).toContainText('1 day overdue');
  await expect(page.getByRole('columnheader', { name: 'Status' })).toBeHidden();
  // Nothing wider than the screen: neither the page nor the table in its scrolling box.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const table = page.locator('table');
  expect(await table.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth)).toBe(0);

  const apply = page.getByRole('button', { name: 'Apply to ticked tasks' });
  if (javaScriptEnabled) {
    await expect(apply).toBeHidden();
    await page.getByRole('checkbox', { name: 'Tick BAC-2' }).check();
    await expect(apply).toBeVisible();
  } else {
    await expect(apply).toBeVisible();
  }

  await page.getByLabel('Sort by').selectOption('title');
  if (javaScriptEnabled) await expect(page).toHaveURL(/sort=title&dir=asc/);
  await page.getByLabel('Direction').selectOption('desc');
  if (!javaScriptEnabled) await page.getByRole('button', { name: 'Sort', exact: true }).click();
  await expect(page).toHaveURL(/sort=title&dir=desc/);
  await expect(page.locator('tbody tr a[data-row-link]')).toHaveText([/^Task 3$/, /^Task 2$/, /^Task 1$/]);
});
