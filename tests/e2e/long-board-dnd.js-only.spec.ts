import { boardOfTasks, expect, hydrated, test, signInAs } from './support.ts';

// With JavaScript, a column's next cards load as its end scrolls into view, and a card from beyond
// the first window can be dragged to another column like any other.
test('a card beyond the first 50 loads on scroll and can be dragged to another column', async ({ page }) => {
  test.setTimeout(90_000);
  const { owner, boardPath, columns } = await boardOfTasks(1000);
  await signInAs(page, owner);
  await page.goto(boardPath);
  await hydrated(page);

  const todo = page.getByRole('region', { name: 'To do' });
  const done = page.getByRole('region', { name: 'Done' });
  await expect(todo.getByRole('listitem')).toHaveCount(50);
  // Task 401 is the 101st card of To do (tasks 1, 5, 9, … go there): two windows further down.
  const card = todo
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: /^BAC-\d+ Task 401$/ }) });
  await expect(card).toHaveCount(0);
  while ((await card.count()) === 0) {
    await todo.getByRole('listitem').last().scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 600);
    await page.waitForTimeout(100);
  }
  // The column grew in place, by windows of 50 (it may go on while its end stays in view), and the
  // address says how far.
  const shown = Number(new URL(page.url()).searchParams.get(columns.todo));
  expect(shown).toBeGreaterThanOrEqual(150);
  expect(shown % 50).toBe(0);
  expect(await todo.getByRole('listitem').count()).toBeGreaterThanOrEqual(150);

  await card.scrollIntoViewIfNeeded();
  await card.dragTo(done, { sourcePosition: { x: 200, y: 6 } });
  await expect(done.getByRole('heading')).toHaveText('Done 251');
  await expect(todo.getByRole('heading')).toHaveText('To do 249');
  await expect(page.getByText('Saving…')).toHaveCount(0);

  // Saved: a fresh load shows it in Done.
  await page.goto(boardPath);
  await expect(done.getByRole('heading')).toHaveText('Done 251');
  await expect(todo.getByRole('heading')).toHaveText('To do 249');
  const moved = done.getByRole('link', { name: /^BAC-\d+ Task 401$/ });
  // Where it was dropped (below the last card Done showed then) decides how far down it is.
  const more = done.getByRole('link', { name: /^Show 50 more/ });
  while ((await moved.count()) === 0 && (await more.count()) > 0) {
    const before = await done.getByRole('listitem').count();
    await more.click();
    await expect(done.getByRole('listitem')).not.toHaveCount(before);
  }
  await expect(moved).toBeVisible();
});
