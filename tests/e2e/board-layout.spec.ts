import { expect, projectPath, signIn, test } from './support.ts';

// The board uses a wide screen: at 1440 px its four columns sit side by side without scrolling, and a
// card's five-word title takes one or two lines (it took three when the page kept a reading width).
test.use({ viewport: { width: 1440, height: 900 } });

test('at 1440 px the columns fit side by side and a five-word title sits on one or two lines', async ({
  page,
}) => {
  await signIn(page, 'linus@demo.crewboard.test', 'crewboard-demo');
  await page.goto(projectPath('northwind', 'WEB'));
  const board = page.locator('.board-columns');
  await expect(board.locator('section[data-status-id]')).toHaveCount(4);
  const fits = await board.evaluate((el) => el.scrollWidth <= el.clientWidth);
  expect(fits, 'the four columns fit without scrolling sideways').toBe(true);

  const title = page.getByRole('link', { name: /Design the case study layout/ });
  const lines = await title.evaluate((el) => {
    const lineHeight = parseFloat(getComputedStyle(el).lineHeight);
    return Math.round(el.getBoundingClientRect().height / lineHeight);
  });
  expect(lines).toBeLessThanOrEqual(2);

  // Each column keeps at least 14rem: with more columns the row scrolls sideways rather than squeeze them.
  const width = await board
    .locator('section[data-status-id]')
    .first()
    .evaluate((el) => el.clientWidth);
  expect(width).toBeGreaterThanOrEqual(14 * 16);
});
