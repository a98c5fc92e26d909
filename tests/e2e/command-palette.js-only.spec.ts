// The command palette (Ctrl-K / ⌘K), with JavaScript: a key typed, Enter, and the task opens; the
// arrows move through the choices; a page by its name; axe finds nothing serious in it open. Outside
// a workspace it goes to one by name; "New task in …" opens the board's form ready to type.
import AxeBuilder from '@axe-core/playwright';
import { boardOfTasks, expect, hydrated, signInAs, test } from './support.ts';

test('Ctrl-K, type a key, Enter: the task opens; arrows and a page by name', async ({ page }) => {
  const { owner, boardPath } = await boardOfTasks(3);
  const slug = boardPath.split('/')[2] ?? '';
  await signInAs(page, owner);
  await page.goto(`/w/${slug}/members`);
  await hydrated(page);

  await page.keyboard.press('Control+k');
  const box = page.getByRole('combobox', { name: 'Go to a task, project or page' });
  await expect(box).toBeFocused();
  await expect(box).toHaveAttribute('aria-controls', 'palette-choices');
  await box.fill('bac 2');
  const options = page.getByRole('listbox', { name: 'Choices' }).getByRole('option');
  await expect(options.first()).toHaveText('BAC-2 Task 2');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute(
    'aria-activedescendant',
    (await options.first().getAttribute('id')) ?? '',
  );

  const { violations } = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  // The arrows move the active option, round the ends.
  await box.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await box.press('ArrowUp');
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${boardPath}/t/2$`));
  await expect(page.getByRole('heading', { name: 'Task 2' })).toBeVisible();

  // A page by its name; Escape closes without going anywhere.
  await page.keyboard.press('Control+k');
  await box.fill('members');
  await expect(options.first()).toHaveText('Go to Members');
  await box.press('Escape');
  await expect(box).toHaveCount(0);
  await page.keyboard.press('Control+k');
  await box.fill('members');
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/w/${slug}/members$`));
});

test('Ctrl-K on the workspaces page, then "new task": the board\'s form takes the title', async ({
  page,
}) => {
  const { owner, boardPath } = await boardOfTasks(1);
  const slug = boardPath.split('/')[2] ?? '';
  await signInAs(page, owner);
  await page.goto('/w');
  await hydrated(page);

  // Outside a workspace: its pages and the workspaces, no task search.
  await page.keyboard.press('Control+k');
  const options = page.getByRole('listbox', { name: 'Choices' }).getByRole('option');
  await page.getByRole('combobox', { name: 'Go to a workspace or page' }).fill('long');
  await expect(options).toHaveText(['Go to Long board']);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/w/${slug}$`));

  const box = page.getByRole('combobox', { name: 'Go to a task, project or page' });
  const todo = page.getByRole('region', { name: 'To do' });
  await page.keyboard.press('Control+k');
  await box.fill('new task');
  await expect(options.first()).toHaveText('New task in BAC');
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${boardPath}\\?new=1$`));
  await expect(todo.getByLabel('Title')).toBeFocused();
  await page.keyboard.type('Written from the palette');
  await page.keyboard.press('Enter');
  await expect(todo.getByRole('link', { name: /Written from the palette/ })).toBeVisible();
  // The create's answer is the board without the form's focus; asked again, on the same board, the
  // form opens and takes the focus again.
  await expect(page).toHaveURL(new RegExp(`${boardPath}$`));
  await todo.getByLabel('Title').press('Escape');
  await expect(todo.getByLabel('Title')).toBeHidden();
  await page.keyboard.press('Control+k');
  await box.fill('new task');
  await box.press('Enter');
  await expect(todo.getByLabel('Title')).toBeFocused();
});
