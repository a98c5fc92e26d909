import { addMember, createConfirmedUser, expect, signIn, test, openNewTask, signInAs } from './support.ts';

test('a member moves, edits and comments on a shared board; deleting the workspace removes it for everyone', async ({
  page,
  browser,
}) => {
  const owner = await createConfirmedUser('owner');
  const member = await createConfirmedUser('member');
  await signInAs(page, owner);
  const slug = `shared-${Date.now().toString(36)}`;
  await page.getByLabel('Workspace name').fill('Shared');
  await page.getByLabel('Address').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByLabel('Project name').fill('Roadmap');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('heading', { name: 'Roadmap' })).toBeVisible();
  const boardUrl = page.url();
  const todo = page.getByRole('region', { name: 'To do' });
  await openNewTask(todo);
  await todo.getByLabel('Title').fill('Draft the roadmap');
  await todo.getByRole('button', { name: 'Create task' }).click();
  await todo.getByRole('link', { name: /Draft the roadmap/ }).click();
  const ownerPanel = page.getByRole('complementary', { name: 'Task ROA-1' });
  await ownerPanel.getByLabel('Comment', { exact: true }).fill('Owner here: first pass by Friday.');
  await ownerPanel.getByRole('button', { name: 'Add comment' }).click();
  await expect(ownerPanel.getByText('Owner here: first pass by Friday.')).toBeVisible();
  await addMember(slug, member.id, 'member');

  // The member works on the same board in a browser of their own.
  const memberPage = await (await browser.newContext()).newPage();
  await signIn(memberPage, member.email, member.password);
  await memberPage.goto(boardUrl);
  const memberTodo = memberPage.getByRole('region', { name: 'To do' });
  // Moved with the panel's form without JavaScript, with the card's "⋯" menu with it (the member's
  // context follows the project's setting).
  if (test.info().project.use.javaScriptEnabled === false) {
    await memberTodo.getByRole('link', { name: /Draft the roadmap/ }).click();
    const memberPanel = memberPage.getByRole('complementary', { name: 'Task ROA-1' });
    await memberPanel.getByLabel('Move ROA-1 to').selectOption({ label: 'In progress' });
    await memberPanel.getByRole('button', { name: 'Move', exact: true }).click();
  } else {
    await memberTodo.getByRole('button', { name: 'Actions for ROA-1' }).click();
    await memberTodo.getByRole('button', { name: 'In progress', exact: true }).click();
  }
  const inProgress = memberPage.getByRole('region', { name: 'In progress' });
  await expect(inProgress.getByRole('link', { name: /Draft the roadmap/ })).toBeVisible();
  // With JavaScript the card shows there at once, while the move is still being saved: leaving now
  // would cancel it.
  await expect(memberPage.getByText('Saving…')).toHaveCount(0);
  await memberPage.goto(boardUrl);

  await inProgress.getByRole('link', { name: /Draft the roadmap/ }).click();
  const panel = memberPage.getByRole('complementary', { name: 'Task ROA-1' });
  await panel.getByRole('link', { name: 'Edit', exact: true }).click();
  await panel.getByLabel('Title').fill('Draft the 2027 roadmap');
  await panel.getByRole('button', { name: 'Save task' }).click();
  await expect(inProgress.getByRole('link', { name: /Draft the 2027 roadmap/ })).toBeVisible();

  await panel.getByLabel('Comment', { exact: true }).fill('Member here: I take the first half.');
  await panel.getByRole('button', { name: 'Add comment' }).click();
  const mine = panel.getByRole('listitem').filter({ hasText: 'Member here' });
  const theirs = panel.getByRole('listitem').filter({ hasText: 'Owner here' });
  await expect(mine).toBeVisible();
  // Only one's own comments can be edited or deleted by a member.
  await expect(theirs.getByRole('link', { name: 'Edit comment' })).toHaveCount(0);
  await expect(theirs.getByRole('link', { name: 'Delete comment' })).toHaveCount(0);

  await mine.getByRole('link', { name: 'Edit comment' }).click();
  await panel.getByLabel('Edit your comment').fill('   ');
  await panel.getByRole('button', { name: 'Save comment' }).click();
  await expect(panel.getByText('Write a comment.')).toBeVisible();
  await panel.getByLabel('Edit your comment').fill('Member here: I take the first half, and the budget.');
  await panel.getByRole('button', { name: 'Save comment' }).click();
  await expect(panel.getByText('Member here: I take the first half, and the budget.')).toBeVisible();
  await expect(mine.getByText('(edited)')).toBeVisible();
  await expect(panel.getByLabel('Edit your comment')).toHaveCount(0);

  // The owner sees the member's work, and as an admin may delete the member's comment.
  await page.goto(`${boardUrl}/t/1`);
  await expect(
    page.getByRole('region', { name: 'In progress' }).getByText(/Draft the 2027 roadmap/),
  ).toBeVisible();
  const memberComment = ownerPanel.getByRole('listitem').filter({ hasText: 'and the budget' });
  await expect(memberComment.getByRole('link', { name: 'Edit comment' })).toHaveCount(0);
  await memberComment.getByRole('link', { name: 'Delete comment' }).click();
  await page.getByRole('button', { name: 'Delete comment' }).click();
  await expect(ownerPanel.getByText('and the budget')).toHaveCount(0);

  // The owner deletes the workspace: it is gone from the member's list and its pages are not found.
  await page.goto(`/w/${slug}/settings`);
  await page.getByLabel('Type “Shared” to confirm').fill('Shared');
  await page.getByRole('button', { name: 'Delete workspace' }).click();
  await expect(page).toHaveURL(/\/w$/);
  await memberPage.goto('/w');
  await expect(memberPage.getByRole('link', { name: /Shared/ })).toHaveCount(0);
  expect((await memberPage.goto(boardUrl))?.status()).toBe(404);
});
