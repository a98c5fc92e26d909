import { boardOfTasks, expect, test, signInAs } from './support.ts';

// A board of 1,000 tasks shows each column's first 50 cards with the column's exact count; every
// other card is one "Show 50 more" away, with or without JavaScript (the address keeps the count).
test('every task of a 1,000-task board can be reached', async ({ page }) => {
  test.setTimeout(120_000);
  const { owner, boardPath, columns: statusIds } = await boardOfTasks(1000);
  await signInAs(page, owner);
  await page.goto(boardPath);

  const columns = [
    ['Backlog', 250],
    ['To do', 250],
    ['In progress', 250],
    ['Done', 250],
  ] as const;
  for (const [column, count] of columns) {
    const region = page.getByRole('region', { name: column });
    await expect(region.getByRole('heading')).toHaveText(`${column} ${count}`);
    await expect(region.getByRole('listitem')).toHaveCount(50);
  }
  const seen = new Set<string>();
  for (const [column, count] of columns) {
    const region = page.getByRole('region', { name: column });
    // Each click shows 50 more, until the column is whole and the link is gone. (With JavaScript a
    // link that scrolls into view loads by itself too, so a column may grow before its turn.)
    const more = region.getByRole('link', { name: /^Show 50 more/ });
    for (let clicks = 0; (await more.count()) > 0; clicks++) {
      expect(clicks, `${column}: still a link after ${clicks} clicks`).toBeLessThan(count / 50);
      const before = await region.getByRole('listitem').count();
      // The link may go between the count and the click, when loading on scroll finished the column.
      await more.click({ timeout: 5_000 }).catch(async (error: unknown) => {
        if ((await more.count()) > 0) throw error;
      });
      // More cards, unless loading on scroll had already finished the column when they were counted.
      if (before < count) await expect(region.getByRole('listitem')).not.toHaveCount(before);
    }
    await expect(region.getByRole('listitem')).toHaveCount(count);
    for (const title of await region.getByRole('listitem').getByRole('link').allTextContents())
      seen.add(title.replace(/^BAC-\d+\s*/, ''));
  }
  expect(seen.size).toBe(1000);
  for (let n = 1; n <= 1000; n++) expect(seen.has(`Task ${n}`), `Task ${n}`).toBe(true);

  // The address says how much each column shows: a fresh load of it shows the same.
  // (With JavaScript, loading on scroll may have asked for a window past the column's end.)
  for (const param of Object.values(statusIds))
    expect(Number(new URL(page.url()).searchParams.get(param)), param).toBeGreaterThanOrEqual(250);
  await page.goto(page.url());
  await expect(page.getByRole('region', { name: 'Done' }).getByRole('listitem')).toHaveCount(250);
});
