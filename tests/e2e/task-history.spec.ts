import { expect, hydrated, signInAs, test, boardOfTasks } from './support.ts';

test('the task panel’s timeline: history grows with a status change, and a comment shows when it was written', async ({
  page,
  javaScriptEnabled,
}) => {
  const { owner, boardPath } = await boardOfTasks(1);
  await signInAs(page, owner);
  await page.goto(`${boardPath}/t/1`);
  const panel = page.getByRole('complementary', { name: /^Task [A-Z0-9]+-1$/ });
  const timeline = panel.getByRole('region', { name: 'Activity' }).getByRole('list');
  // Made through the service role: the system made it, and the history begins there.
  await expect(timeline.getByRole('listitem')).toHaveText([
    /^Someone created the task · (just now|\d+ minutes? ago)$/,
  ]);
  if (javaScriptEnabled) await hydrated(page);

  await panel.getByRole('link', { name: 'Edit', exact: true }).click();
  await panel.getByLabel('Status').selectOption({ label: 'In progress' });
  await panel.getByLabel('Priority').selectOption('high');
  await panel.getByRole('button', { name: 'Save task' }).click();
  const name = owner.email.split('@')[0] ?? '';
  await expect(timeline.getByRole('listitem')).toHaveText([
    /created the task/,
    `${name} moved the task from To do to In progress · just now`,
    `${name} changed the priority from no priority to high · just now`,
  ]);

  await panel.getByLabel('Comment', { exact: true }).fill('Starting on it now.');
  await panel.getByRole('button', { name: 'Add comment' }).click();
  const comment = timeline.getByRole('listitem').filter({ hasText: 'Starting on it now.' });
  await expect(comment).toBeVisible();
  await expect(timeline.getByRole('listitem')).toHaveCount(4);
  await expect(timeline.getByRole('listitem').last()).toContainText('Starting on it now.');
  // When it was written: relative, with the exact time for machines and on hover.
  const time = comment.locator('time');
  await expect(time).toHaveText('just now');
  const written = Date.parse((await time.getAttribute('datetime')) ?? '');
  expect(Math.abs(Date.now() - written)).toBeLessThan(5 * 60_000);
  await expect(time).toHaveAttribute('title', /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
  await expect(comment.getByText('(edited)')).toHaveCount(0);

  // Its author edits it: it says so, and stays where it was written.
  await comment.getByRole('link', { name: 'Edit comment' }).click();
  await panel.getByLabel('Edit your comment').fill('Starting on it now, with the designs.');
  await panel.getByRole('button', { name: 'Save comment' }).click();
  const edited = timeline.getByRole('listitem').filter({ hasText: 'with the designs' });
  await expect(edited.getByText('(edited)')).toBeVisible();
  await expect(timeline.getByRole('listitem').last()).toContainText('with the designs');

  // What the server renders on a fresh GET, without the browser's clock.
  await page.goto(page.url());
  await expect(timeline.getByRole('listitem')).toHaveCount(4);
  await expect(timeline.getByRole('listitem').nth(1)).toHaveText(
    `${name} moved the task from To do to In progress · just now`,
  );
});
