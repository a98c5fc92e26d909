import { boardOfTasks, expect, hydrated, signInAs, test } from './support.ts';

// The list with JavaScript: `j` and `k` move the focus between rows (from a ticked checkbox too),
// Enter opens the focused task in the panel over the list, and shift-click ticks a range of rows.
test('move between rows with j and k, open one with Enter, tick a range with shift-click', async ({
  page,
}) => {
  const { owner, boardPath } = await boardOfTasks(5);
  await signInAs(page, owner);
  await page.goto(`${boardPath}/list`);
  await hydrated(page);
  const title = (n: number) => page.locator('tbody tr a[data-row-link]', { hasText: `Task ${n}` });

  await page.keyboard.press('j');
  await expect(title(1)).toBeFocused();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(title(3)).toBeFocused();
  await page.keyboard.press('k');
  await expect(title(2)).toBeFocused();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('complementary', { name: 'Task BAC-2' });
  await expect(panel).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${boardPath}/list/t/2$`));
  await panel.getByRole('link', { name: 'Close' }).click();
  await expect(panel).toHaveCount(0);

  // Shift-click ticks every row from the last one clicked to this one, and untick them the same way.
  const box = (n: number) => page.getByRole('checkbox', { name: `Tick BAC-${n}` });
  await box(1).click();
  await box(4).click({ modifiers: ['Shift'] });
  for (const n of [1, 2, 3, 4]) await expect(box(n)).toBeChecked();
  await expect(box(5)).not.toBeChecked();
  await expect(page.getByText('4 tasks ticked')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Tick every task shown' })).toHaveJSProperty(
    'indeterminate',
    true,
  );
  await box(2).click({ modifiers: ['Shift'] });
  for (const n of [2, 3, 4]) await expect(box(n)).not.toBeChecked();
  await expect(box(1)).toBeChecked();
  await expect(page.getByText('1 task ticked')).toBeVisible();

  // A ticked checkbox is not a text field: `j` goes on from its row.
  await expect(box(2)).toBeFocused();
  await page.keyboard.press('j');
  await expect(title(3)).toBeFocused();
});
