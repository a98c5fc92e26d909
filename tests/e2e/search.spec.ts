// Search, with JavaScript on and off: a word by its beginning, a task by its key, a word inside a
// comment (marked, with where it was found), filters and what was ignored; and the board's text
// filter taking a key as the cards show it.
import { boardOfTasks, expect, serviceRest, signInAs, test } from './support.ts';

test('search by the beginning of a word, by key and inside a comment; filter the board by key', async ({
  page,
}) => {
  const titles = ['Bootloader signing', 'Fix watchdog reset on boot', 'Release notes'];
  const { owner, boardPath, workspaceId } = await boardOfTasks(3, (n) => ({ title: titles[n - 1] }));
  const [third] = await serviceRest<Array<{ id: string }>>(
    'GET',
    `tasks?workspace_id=eq.${workspaceId}&number=eq.3&select=id`,
  );
  await serviceRest('POST', 'comments', {
    workspace_id: workspaceId,
    task_id: third?.id,
    author_id: owner.id,
    body: 'The <b>flaky</b> test blocks BAC-2',
  });
  const slug = boardPath.split('/')[2] ?? '';
  await signInAs(page, owner);
  const results = page.getByRole('list').filter({ has: page.getByRole('link', { name: /^BAC-/ }) });
  const search = async (q: string) => {
    await page.getByRole('searchbox', { name: 'Search tasks' }).fill(q);
    await page.getByRole('searchbox', { name: 'Search tasks' }).press('Enter');
    await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(q).replace(/%20/g, '\\+')}`));
  };

  await page.goto(`/w/${slug}/search`);
  // "bootl" is the beginning of "Bootloader": found, and marked.
  await search('bootl');
  await expect(page.getByText('1 task matches “bootl”.')).toBeVisible();
  await expect(results.getByRole('link')).toHaveText(['BAC-1 Bootloader signing']);
  await expect(results.locator('mark')).toHaveText(['Bootloader']);

  // "boot" begins both titles; by key, in any case and spacing, the task comes first.
  await search('boot');
  await expect(results.getByRole('link')).toHaveCount(2);
  await search('bac 2');
  await expect(results.getByRole('link').first()).toHaveText('BAC-2 Fix watchdog reset on boot');

  // Inside a comment: the task, where it was found, and the words around it, its HTML as text.
  await search('flaky');
  await expect(results.getByRole('link')).toHaveText(['BAC-3 Release notes']);
  await expect(results.getByText('in a comment')).toBeVisible();
  await expect(results.locator('mark')).toHaveText(['flaky']);

  // A filter, and what was ignored said so.
  await search('boot is:done owner:me');
  await expect(
    page.getByText('“owner:” is not a filter, so it was ignored.', { exact: false }),
  ).toBeVisible();
  await expect(page.getByText('No tasks match “boot is:done owner:me”.')).toBeVisible();
  await search('x'.repeat(201));
  await expect(page.getByRole('alert')).toHaveText(
    'A search can be at most 200 characters long; this one has 201.',
  );

  // The board's text filter takes a key as the cards show it.
  for (const q of ['BAC-2', 'bac 2', '#2']) {
    await page.goto(`${boardPath}?q=${encodeURIComponent(q)}`);
    await expect(page.locator('li[data-task-id] > a'), q).toHaveText([/^BAC-2 Fix watchdog reset on boot$/]);
  }
});
