import { expect, signIn, test, openNewTask } from './support.ts';

test('create a workspace and a project, add tasks, and move them (plain forms without JavaScript, the card menu with it)', async ({
  page,
  signedIn: _signedIn,
}) => {
  await page.goto('/w');
  await expect(page.getByRole('link', { name: /Personal/ })).toBeVisible();

  const slug = `crew-${Date.now().toString(36)}`;
  await page.getByLabel('Workspace name').fill('Crew HQ');
  await page.getByLabel('Address').fill('settings');
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page.getByText('That address is reserved. Try another.')).toBeVisible();
  await expect(page.getByLabel('Workspace name')).toHaveValue('Crew HQ');
  await page.getByLabel('Address').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${slug}$`));

  await page.getByLabel('Project name').fill('Launch');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('heading', { name: 'Launch' })).toBeVisible();
  const boardUrl = page.url();

  const todo = page.getByRole('region', { name: 'To do' });
  for (const title of ['Write the brief', 'Book the venue', 'Send invitations']) {
    await openNewTask(todo);
    await todo.getByLabel('Title').fill(title);
    await todo.getByRole('button', { name: 'Create task' }).click();
    await expect(todo.getByRole('link', { name: new RegExp(title) })).toBeVisible();
  }
  await expect(todo.getByRole('listitem')).toHaveCount(3);

  // Without JavaScript the move controls live in the task panel (the cards carry none, so a long board
  // stays light); with it, in each card's "⋯" menu, and the panel's forms are hidden.
  const js = test.info().project.use.javaScriptEnabled !== false;
  const move = async (title: RegExp, number: number, choice: 'up' | 'down' | 'In progress') => {
    if (js) {
      await page.getByRole('button', { name: `Actions for LAU-${number}` }).click();
      const item = choice === 'In progress' ? choice : `Move ${choice}`;
      await page.getByRole('button', { name: item, exact: true }).click();
      await expect(page.getByText('Saving…')).toBeHidden();
      return;
    }
    await todo.getByRole('link', { name: title }).click();
    const panel = page.getByRole('complementary', { name: `Task LAU-${number}` });
    if (choice === 'In progress') {
      await panel.getByLabel(`Move LAU-${number} to`).selectOption({ label: 'In progress' });
      await panel.getByRole('button', { name: 'Move', exact: true }).click();
    } else {
      await panel.getByRole('button', { name: `Move LAU-${number} ${choice}` }).click();
      await expect(panel).toBeVisible();
    }
  };
  // Up: the third task moves above the second, and stays there on a fresh GET.
  await move(/Send invitations/, 3, 'up');
  await expect(todo.getByRole('listitem').nth(1)).toContainText('Send invitations');
  const order = ['Write the brief', 'Send invitations', 'Book the venue'].map((t) => new RegExp(t));
  await page.goto(boardUrl);
  await expect(todo.getByRole('listitem')).toHaveText(order);
  // Down: back below the second.
  await move(/Send invitations/, 3, 'down');
  await expect(todo.getByRole('listitem').nth(2)).toContainText('Send invitations');
  await page.goto(boardUrl);
  await expect(todo.getByRole('listitem')).toHaveText(
    ['Write the brief', 'Book the venue', 'Send invitations'].map((t) => new RegExp(t)),
  );

  // Another column.
  await move(/Write the brief/, 1, 'In progress');
  const inProgress = page.getByRole('region', { name: 'In progress' });
  await expect(inProgress.getByRole('link', { name: /Write the brief/ })).toBeVisible();
  await expect(todo.getByRole('listitem')).toHaveCount(2);
  await page.goto(boardUrl);
  await expect(inProgress.getByRole('link', { name: /Write the brief/ })).toBeVisible();

  // Empty titles are refused next to the field.
  await openNewTask(inProgress);
  await inProgress.getByRole('button', { name: 'Create task' }).click();
  await expect(inProgress.getByText('Enter a title.')).toBeVisible();

  await page.getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByText(/moved LAU-1 Write the brief to In progress/)).toBeVisible();
});

test('someone else’s workspace is not found', async ({ page, signedIn: _signedIn }) => {
  const response = await page.goto('/w/northwind');
  expect(response?.status()).toBe(404);
  await expect(page.getByText("We couldn't find that page.")).toBeVisible();
});

test('search finds a task by a word in its description', async ({ page }) => {
  await signIn(page, 'grace@demo.crewboard.test', 'crewboard-demo');
  await page.goto('/w/northwind');
  await page.getByRole('link', { name: 'Search' }).click();
  await page.getByLabel('Search tasks').fill('typo-tolerant');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('1 task matches “typo-tolerant”.')).toBeVisible();
  await page.getByRole('link', { name: /Search across articles/ }).click();
  await expect(page.getByRole('complementary', { name: /Task WEB-26/ })).toBeVisible();
});
