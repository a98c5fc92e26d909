import { expect, newBoard, openNewTask, test } from './support.ts';

// The task as a document, with JavaScript and without (both Playwright projects run this file):
// a description in markdown with a checklist and a task key, rendered; a box ticked; the card's count.
test('write a description with a checklist and a task key, tick an item, see 1/2 on the card', async ({
  page,
  signedIn,
}) => {
  void signedIn;
  const slug = await newBoard(page, 'doc');
  const todo = page.getByRole('region', { name: 'To do' });
  for (const title of ['Write the docs', 'Plan the launch']) {
    await openNewTask(todo);
    await todo.getByLabel('Title').fill(title);
    await todo.getByRole('button', { name: 'Create task' }).click();
    await expect(todo.getByRole('link', { name: new RegExp(title) })).toBeVisible();
  }

  await todo.getByRole('link', { name: /Plan the launch/ }).click();
  const panel = page.getByRole('complementary', { name: 'Task BOA-2' });
  await panel.getByRole('link', { name: 'Edit', exact: true }).click();
  await panel
    .getByLabel('Description')
    .fill('Needs boa-1 **first**.\n\n- [ ] draft the page\n- [ ] review it\n\n<script>alert(1)</script>');
  await panel.getByRole('button', { name: 'Save task' }).click();

  const key = panel.getByRole('link', { name: /BOA-1 Write the docs/ });
  await expect(key).toHaveAttribute('href', `/w/${slug}/p/boa/t/1`);
  await expect(panel.locator('.markdown strong')).toHaveText('first');
  await expect(panel.getByText('<script>alert(1)</script>')).toBeVisible();
  const draft = panel.getByRole('checkbox', { name: 'draft the page' });
  const review = panel.getByRole('checkbox', { name: 'review it' });
  await expect(draft).not.toBeChecked();
  await expect(review).not.toBeChecked();

  // The tick lands (a fetcher's post with JavaScript, the form's without), and the card behind the panel counts it.
  const tick = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/t/2'));
  await draft.click();
  await expect(draft).toBeChecked();
  await tick;
  const progress = page.getByRole('region', { name: 'To do' }).getByRole('img', { name: /^Checklist:/ });
  await expect(progress).toHaveAccessibleName('Checklist: 1 of 2 done');
  await expect(review).not.toBeChecked();
  // What the server kept.
  await page.goto(page.url().replace(/\?.*$/, ''));
  await expect(draft).toBeChecked();
  await expect(review).not.toBeChecked();
  await expect(progress).toHaveText('1/2');

  // The key's link opens the task it names.
  await key.click();
  await expect(page.getByRole('complementary', { name: 'Task BOA-1' })).toBeVisible();
});
