import type { Page } from '@playwright/test';
import {
  addMember,
  createConfirmedUser,
  expect,
  flash,
  hydrated,
  openNewTask,
  serviceRest,
  signInAs,
  test,
} from './support.ts';

const javaScript = () => test.info().project.use.javaScriptEnabled !== false;

/** A workspace of the signed-in owner's, a project, and its task with a comment and a file, open in its panel. */
async function taskWithCommentAndFile(page: Page) {
  await page.goto('/w');
  const slug = `trash-${Date.now().toString(36)}`;
  await page.getByLabel('Workspace name').fill('Trash test');
  await page.getByLabel('Address').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByLabel('Project name').fill('Garden');
  await page.getByRole('button', { name: 'Create project' }).click();
  const todo = page.getByRole('region', { name: 'To do' });
  await openNewTask(todo);
  await todo.getByLabel('Title').fill('Water the roses');
  await todo.getByRole('button', { name: 'Create task' }).click();
  await todo.getByRole('link', { name: /Water the roses/ }).click();
  const panel = page.getByRole('complementary', { name: 'Task GAR-1' });
  await expect(panel).toBeVisible();
  await panel.getByLabel('Comment', { exact: true }).fill('Twice a week in July.');
  await panel.getByRole('button', { name: 'Add comment' }).click();
  await expect(panel.getByText('Twice a week in July.')).toBeVisible();
  await panel.getByLabel('Attach a file').setInputFiles({
    name: 'schedule.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Mon, Thu'),
  });
  await panel.getByRole('button', { name: 'Upload file' }).click();
  await expect(panel.getByRole('link', { name: 'schedule.txt', exact: true })).toBeVisible();
  return { slug, panel };
}

/** Deletes the open task through its confirmation (the dialog, or the page without JavaScript). */
async function deleteTask(page: Page) {
  const panel = page.getByRole('complementary', { name: 'Task GAR-1' });
  await hydrated(page);
  await panel.getByRole('link', { name: 'Delete task' }).click();
  const question = javaScript()
    ? page.getByRole('dialog', { name: 'Move GAR-1 to the trash?' })
    : page.getByRole('complementary', { name: 'Move GAR-1 to the trash?' });
  await expect(question).toBeVisible();
  await expect(question.getByText(/restore it .* for 30 days/)).toBeVisible();
  await question.getByRole('button', { name: 'Delete task' }).click();
  await expect(panel).toHaveCount(0);
}

test('delete a task with confirmation, undo, delete again and restore it from the trash with its comments and files', async ({
  page,
  signedIn,
}) => {
  void signedIn;
  const { slug, panel } = await taskWithCommentAndFile(page);
  const board = page.getByRole('region', { name: 'To do' });

  if (javaScript()) {
    // The dialog is a real modal: focus goes into it, Esc closes it and nothing is deleted.
    await hydrated(page);
    await panel.getByRole('link', { name: 'Delete task' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move GAR-1 to the trash?' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(panel).toBeVisible();
  } else {
    // Without JavaScript the question is a page; Cancel goes back to the task.
    await panel.getByRole('link', { name: 'Delete task' }).click();
    await page.getByRole('link', { name: 'Cancel' }).click();
    await expect(panel).toBeVisible();
  }

  await deleteTask(page);
  const notice = page.getByRole('status').filter({ hasText: 'Task GAR-1 moved to the trash.' });
  await expect(notice).toBeVisible();
  await expect(board.getByRole('link', { name: /Water the roses/ })).toHaveCount(0);

  // Undo puts it back where it was, and opens it.
  // (Its flash may be gone already with JavaScript: the board reloads its data on the live change.)
  await notice.getByRole('button', { name: 'Undo' }).click();
  await expect(panel).toBeVisible();
  await expect(notice).toHaveCount(0);
  await expect(panel.getByText('Twice a week in July.')).toBeVisible();
  await expect(panel.getByRole('link', { name: 'schedule.txt', exact: true })).toBeVisible();
  await expect(board.getByRole('link', { name: /Water the roses/ })).toBeVisible();

  await deleteTask(page);
  await expect(page.getByRole('status').filter({ hasText: 'moved to the trash' })).toBeVisible();
  if (javaScript()) {
    // With JavaScript the notice goes away by itself after a few seconds.
    await expect(page.getByRole('status').filter({ hasText: 'moved to the trash' })).toHaveCount(0, {
      timeout: 15_000,
    });
  }

  // Admins find it in the workspace's trash, from the workspace's navigation.
  await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Trash' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${slug}/trash$`));
  const trash = page.getByRole('list', { name: 'Deleted tasks' });
  const row = trash.getByRole('listitem').filter({ hasText: 'Water the roses' });
  await expect(row).toContainText('GAR-1');
  await expect(row).toContainText('Garden');
  await expect(row).toContainText(/deleted by .+ just now/);
  await expect(row).toContainText('30 days left');
  await row.getByRole('button', { name: 'Restore GAR-1' }).click();
  await expect(flash(page, 'The task was restored.')).toBeVisible();
  await expect(page.getByText('The trash is empty.')).toBeVisible();

  await page.goto(`/w/${slug}/p/gar/t/1`);
  await expect(panel.getByText('Twice a week in July.')).toBeVisible();
  await expect(panel.getByRole('link', { name: 'schedule.txt', exact: true })).toBeVisible();
  await panel.getByRole('link', { name: 'Edit', exact: true }).click();
  await expect(panel.getByLabel('Status').locator('option:checked')).toHaveText('To do');
});

test('a task of an archived project is not restored, and the trash says why', async ({ page, signedIn }) => {
  void signedIn;
  const { slug } = await taskWithCommentAndFile(page);
  await deleteTask(page);
  const [project] = await serviceRest<Array<{ id: string }>>(
    'GET',
    `projects?select=id,workspaces!inner(slug)&workspaces.slug=eq.${slug}`,
  );
  await serviceRest('PATCH', `projects?id=eq.${project?.id}`, { archived_at: new Date().toISOString() });

  await page.goto(`/w/${slug}/trash`);
  const row = page.getByRole('listitem').filter({ hasText: 'Water the roses' });
  await expect(row).toContainText('Garden (archived)');
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/trash'));
  await row.getByRole('button', { name: 'Restore GAR-1' }).click();
  expect((await answer).status()).toBe(409);
  await expect(
    page.getByText(/Its project Garden is archived: unarchive the project to restore the task/),
  ).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Water the roses' })).toBeVisible();
});

test('members see no trash, and cannot open the confirmation to delete a task', async ({
  page,
  browser,
  signedIn,
}) => {
  void signedIn;
  const { slug } = await taskWithCommentAndFile(page);
  const member = await createConfirmedUser('trash-member');
  await addMember(slug, member.id, 'member');
  const other = await (await browser.newContext()).newPage();
  await signInAs(other, member);
  await other.goto(`/w/${slug}/p/gar/t/1`);
  const panel = other.getByRole('complementary', { name: 'Task GAR-1' });
  await expect(panel.getByText('Twice a week in July.')).toBeVisible();
  await expect(panel.getByRole('link', { name: 'Delete task' })).toHaveCount(0);
  await expect(
    other.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Trash' }),
  ).toHaveCount(0);
  expect((await other.goto(`/w/${slug}/trash`))?.status()).toBe(404);
  expect((await other.goto(`/w/${slug}/p/gar/t/1/delete`))?.status()).toBe(404);
});
