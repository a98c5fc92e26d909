// Watching a task from its panel: anyone who reads it may, a viewer too; with JavaScript and without.
import {
  addMember,
  boardOfTasks,
  createConfirmedUser,
  expect,
  hydrated,
  serviceRest,
  signInAs,
  test,
} from './support.ts';

test('a viewer watches a task from its panel, then stops watching it', async ({ page }) => {
  const { boardPath } = await boardOfTasks(1);
  const slug = boardPath.split('/')[2] ?? '';
  const key = (boardPath.split('/')[4] ?? '').toUpperCase();
  const viewer = await createConfirmedUser('watcher');
  await addMember(slug, viewer.id, 'viewer');
  await signInAs(page, viewer);

  await page.goto(`${boardPath}/t/1`);
  const panel = page.getByRole('complementary', { name: `Task ${key}-1` });
  await expect(panel.getByText('You do not watch this task.')).toBeVisible();
  await hydrated(page);
  const watchedBy = async () =>
    (
      await serviceRest<Array<{ user_id: string }>>(
        'GET',
        `task_watchers?select=user_id&user_id=eq.${viewer.id}`,
      )
    ).length;
  expect(await watchedBy()).toBe(0);

  await panel.getByRole('button', { name: 'Watch', exact: true }).click();
  await expect(
    panel.getByText('You watch this task: its comments and moves come to your inbox.'),
  ).toBeVisible();
  await expect.poll(watchedBy).toBe(1);
  // Kept on a fresh load: it is the database's answer, not the page's memory.
  await page.reload();
  await expect(panel.getByRole('button', { name: 'Unwatch' })).toBeVisible();

  await hydrated(page);
  await panel.getByRole('button', { name: 'Unwatch' }).click();
  await expect(panel.getByText('You do not watch this task.')).toBeVisible();
  await expect.poll(watchedBy).toBe(0);
});
