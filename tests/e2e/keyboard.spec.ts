// Keyboard only: create a task, move it, open it and close it without the mouse. With
// JavaScript, through the board's own keys: "Add task" and Enter, the arrows and `[` `]` on a card,
// Enter on its handle to open it, Esc to close it. Without, through the forms.
import type { Locator, Page } from '@playwright/test';
import { boardOfTasks, expect, hydrated, test, signInAs } from './support.ts';

/** Presses `key` (Tab by default) until `target` has the focus, as a person would; fails after 80. */
async function tabTo(page: Page, target: Locator, key = 'Tab'): Promise<void> {
  for (let presses = 0; presses < 80; presses++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`80 presses of ${key} did not reach ${target.toString()}`);
}

test('create a task, move it, open and close it with the keyboard alone', async ({ page }) => {
  const { owner, boardPath } = await boardOfTasks(2);
  await signInAs(page, owner);
  await page.goto(boardPath);
  await hydrated(page);
  const js = test.info().project.use.javaScriptEnabled !== false;
  const backlog = page.getByRole('region', { name: 'Backlog' });
  const inProgress = page.getByRole('region', { name: 'In progress' });

  // Create: with JavaScript, the column's "Add task" opens its form with the focus in Title; without,
  // Tab to the column's title field. Then type, Enter.
  if (js) {
    await tabTo(page, backlog.getByRole('button', { name: 'Add task' }));
    await page.keyboard.press('Enter');
    await expect(backlog.getByLabel('Title')).toBeFocused();
  } else {
    await tabTo(page, backlog.getByLabel('Title'));
  }
  await page.keyboard.type('Typed without a mouse');
  await page.keyboard.press('Enter');
  const card = page.getByRole('link', { name: /Typed without a mouse/ });
  await expect(backlog.getByRole('link', { name: /Typed without a mouse/ })).toBeVisible();
  const number = /BAC-(\d+)/.exec((await card.textContent()) ?? '')?.[1];
  expect(number).toBeTruthy();

  // Move: with JavaScript, the arrow keys on the card's handle; without, the panel's move form.
  if (js) {
    const handle = page.getByRole('button', { name: `Reorder BAC-${number}` });
    // The moved card is a new element in its new column, and gets the focus back once it is drawn:
    // each key waits for that, as a person would see the card land before pressing the next.
    await tabTo(page, handle);
    await page.keyboard.press('ArrowRight');
    await expect(
      page.getByRole('region', { name: 'To do' }).getByRole('link', { name: /Typed without a mouse/ }),
    ).toBeVisible();
    await expect(handle).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(inProgress.getByRole('link', { name: /Typed without a mouse/ })).toBeVisible();
    await expect(handle).toBeFocused();
    // `]` and `[`: a column on and back.
    await page.keyboard.press(']');
    await expect(
      page.getByRole('region', { name: 'Done' }).getByRole('link', { name: /Typed without a mouse/ }),
    ).toBeVisible();
    await expect(handle).toBeFocused();
    await page.keyboard.press('[');
    await expect(inProgress.getByRole('link', { name: /Typed without a mouse/ })).toBeVisible();
    await expect(handle).toBeFocused();
  } else {
    await tabTo(page, card);
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByLabel(`Move BAC-${number} to`));
    await page.keyboard.type('In progress');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Move', exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(inProgress.getByRole('link', { name: /Typed without a mouse/ })).toBeVisible();
  }

  // Open with Enter on the card's link, close with the panel's Close link.
  await tabTo(page, card);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/t/${number}$`));
  const panel = page.getByRole('complementary').filter({ has: page.getByRole('link', { name: 'Close' }) });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Typed without a mouse' })).toBeVisible();
  await tabTo(page, panel.getByRole('link', { name: 'Close' }));
  await page.keyboard.press('Enter');
  await expect(panel).toBeHidden();
  await expect(inProgress.getByRole('link', { name: /Typed without a mouse/ })).toBeVisible();

  // With JavaScript: Enter on the card's handle opens it too, and Esc closes it.
  if (js) {
    await tabTo(page, page.getByRole('button', { name: `Reorder BAC-${number}` }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/t/${number}$`));
    await expect(panel).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(page).not.toHaveURL(/\/t\//);
  }
});
