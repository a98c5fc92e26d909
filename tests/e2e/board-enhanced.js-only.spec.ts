// Progressive enhancement that removes, with JavaScript: a column's "Add task",
// the shortcuts (`n`, `?`, a card's `[` `]`) and a card's "⋯" menu reach what the forms for
// browsers without JavaScript do (board-enhanced.spec.ts checks which controls each kind of browser
// shows).
import type { Request } from '@playwright/test';
import { boardOfTasks, expect, hydrated, test, signInAs } from './support.ts';

test.beforeEach(async ({ page }) => {
  const { owner, boardPath } = await boardOfTasks(4);
  await signInAs(page, owner);
  await page.goto(boardPath);
  await hydrated(page);
});

test('"Add task" opens the column\'s form, which creates, stays open for the next, and closes with Esc', async ({
  page,
}) => {
  const done = page.getByRole('region', { name: 'Done' });
  await done.getByRole('button', { name: 'Add task' }).click();
  await expect(done.getByLabel('Title')).toBeFocused();
  await page.keyboard.type('Ship the release notes');
  await page.keyboard.press('Enter');
  await expect(done.getByRole('link', { name: /Ship the release notes/ })).toBeVisible();
  // Open for the next one, empty.
  await expect(done.getByLabel('Title')).toBeVisible();
  await expect(done.getByLabel('Title')).toHaveValue('');
  // A refused one keeps its message next to the field.
  await done.getByRole('button', { name: 'Create task' }).click();
  await expect(done.getByText('Enter a title.')).toBeVisible();
  await done.getByLabel('Title').press('Escape');
  await expect(done.getByLabel('Title')).toBeHidden();
  await expect(done.getByRole('button', { name: 'Add task' })).toBeFocused();
});

test('a title typed while the last create is still loading is kept', async ({ page }) => {
  await expect(page.locator('header[data-live]')).toHaveAttribute('data-live', 'live');
  const done = page.getByRole('region', { name: 'Done' });
  await done.getByRole('button', { name: 'Add task' }).click();
  await page.keyboard.type('Draft the agenda');
  // The board's data after the create is held: the new card shows first from Realtime, and a fast
  // typist is on to the next title before the create's navigation ends.
  const loads = new Set<Request>();
  await page.route(
    (url) => url.searchParams.has('_data'),
    async (route) => {
      if (route.request().method() === 'GET') {
        loads.add(route.request());
        await new Promise((resolve) => setTimeout(resolve, 1_500));
      }
      await route.continue();
    },
  );
  page.on('requestfinished', (request) => loads.delete(request));
  await page.keyboard.press('Enter');
  await expect(done.getByRole('link', { name: /Draft the agenda/ })).toBeVisible();
  await done.getByLabel('Title').fill('Book the room');
  await expect.poll(() => loads.size).toBeGreaterThan(0);
  await expect.poll(() => loads.size, { timeout: 10_000 }).toBe(0);
  await expect(done.getByLabel('Title')).toHaveValue('Book the room');
  await page.keyboard.press('Enter');
  await expect(done.getByRole('link', { name: /Book the room/ })).toBeVisible();
  await expect(done.getByLabel('Title')).toHaveValue('');
});

test("`n` opens a new task in the focused card's column, else in To do", async ({ page }) => {
  await page.keyboard.press('n');
  const todo = page.getByRole('region', { name: 'To do' });
  await expect(todo.getByLabel('Title')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(todo.getByLabel('Title')).toBeHidden();

  const inProgress = page.getByRole('region', { name: 'In progress' });
  await inProgress.getByRole('link', { name: /BAC-2/ }).focus();
  await page.keyboard.press('n');
  await expect(inProgress.getByLabel('Title')).toBeFocused();
  // Typing an `n` in the field is just a letter.
  await page.keyboard.type('nine');
  await expect(inProgress.getByLabel('Title')).toHaveValue('nine');
});

test('a key pressed right after Esc closes the new-task form goes to the page, not the closed form', async ({
  page,
}) => {
  const done = page.getByRole('region', { name: 'Done' });
  await done.getByRole('button', { name: 'Add task' }).click();
  await expect(done.getByLabel('Title')).toBeFocused();
  // Both keys in one task of the page, as a fast typist's would arrive: no frame is drawn between them.
  await page.evaluate(() => {
    const press = (key: string) =>
      document.activeElement?.dispatchEvent(
        new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }),
      );
    press('Escape');
    press('?');
  });
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await expect(done.getByLabel('Title')).toBeHidden();
});

test('`?` lists the shortcuts in a dialog that Esc closes', async ({ page }) => {
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  for (const what of ['New task', 'Open the focused card', 'Close the open task']) {
    await expect(dialog.getByText(what, { exact: false })).toBeVisible();
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('a card\'s "⋯" menu opens it, moves it to another column, and a step down', async ({ page }) => {
  const todo = page.getByRole('region', { name: 'To do' });
  const done = page.getByRole('region', { name: 'Done' });
  await todo.getByRole('button', { name: 'Actions for BAC-1' }).click();
  await expect(todo.getByRole('button', { name: 'To do', exact: true })).toHaveCount(0);
  await todo.getByRole('button', { name: 'Done', exact: true }).click();
  // To the top of Done, where it shows; saved, so a reload agrees.
  await expect(done.getByRole('listitem').first()).toContainText('BAC-1');
  await expect(page.getByText('Saving…')).toBeHidden();
  await page.reload();
  await hydrated(page);
  await expect(done.getByRole('listitem').first()).toContainText('BAC-1');

  await done.getByRole('button', { name: 'Actions for BAC-1' }).click();
  await expect(done.getByRole('button', { name: 'Move up' })).toBeDisabled();
  await done.getByRole('button', { name: 'Move down' }).click();
  await expect(done.getByRole('listitem').nth(1)).toContainText('BAC-1');
  await expect(done.getByRole('listitem').first()).toContainText('BAC-3');

  // Esc closes the menu and gives the focus back to its button; "Open" opens the task.
  const actions = done.getByRole('button', { name: 'Actions for BAC-1' });
  await actions.click();
  await page.keyboard.press('Escape');
  await expect(done.getByRole('button', { name: 'Move down' })).toBeHidden();
  await expect(actions).toBeFocused();
  await actions.click();
  await done.getByRole('link', { name: 'Open BAC-1' }).click();
  await expect(page).toHaveURL(/\/t\/1$/);
  await expect(page.getByRole('complementary', { name: 'Task BAC-1' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('complementary', { name: 'Task BAC-1' })).toBeHidden();
});

test('`[` and `]` move the card whose link has the focus', async ({ page }) => {
  const backlog = page.getByRole('region', { name: 'Backlog' });
  const todo = page.getByRole('region', { name: 'To do' });
  await backlog.getByRole('link', { name: /BAC-4/ }).focus();
  await page.keyboard.press(']');
  await expect(todo.getByRole('link', { name: /BAC-4/ })).toBeVisible();
  // The moved card is a new element: its handle gets the focus once it is drawn, and takes the next key.
  await expect(todo.getByRole('button', { name: 'Reorder BAC-4' })).toBeFocused();
  await page.keyboard.press('[');
  await expect(backlog.getByRole('link', { name: /BAC-4/ })).toBeVisible();
});
