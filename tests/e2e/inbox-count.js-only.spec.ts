// The sidebar's unread count follows the inbox live: a mention written by someone else shows on an
// open page without a reload, and marking it read elsewhere takes it away.
import {
  accessTokenOf,
  addMember,
  boardOfTasks,
  createConfirmedUser,
  expect,
  hydrated,
  restAs,
  serviceRest,
  signInAs,
  test,
} from './support.ts';

test('a mention shows in the unread count of an open page, and leaves it once read', async ({ page }) => {
  const { owner, boardPath, workspaceId, projectId } = await boardOfTasks(1);
  const slug = boardPath.split('/')[2] ?? '';
  const grace = await createConfirmedUser('grace');
  await addMember(slug, grace.id, 'member');
  await serviceRest('PATCH', `profiles?id=eq.${grace.id}`, { display_name: 'Grace Hopper' });
  const [task] = await serviceRest<Array<{ id: string }>>(
    'GET',
    `tasks?select=id&project_id=eq.${projectId}&number=eq.1`,
  );

  await signInAs(page, grace);
  await page.goto(boardPath);
  await hydrated(page);
  const inbox = page.getByRole('navigation', { name: 'Notifications' }).getByRole('link', { name: /^Inbox/ });
  await expect(inbox).toBeVisible();
  await expect(inbox.getByTestId('unread-count')).toHaveCount(0);

  // The owner mentions Grace in a comment, as themselves: the database writes her notification.
  await restAs(await accessTokenOf(owner), 'POST', 'comments', {
    workspace_id: workspaceId,
    task_id: task?.id,
    body: 'Could you look, @grace?',
  });
  await expect(inbox).toHaveAccessibleName('Inbox 1 unread');

  // Read elsewhere (another tab, the inbox): the count goes.
  await serviceRest('PATCH', `notifications?recipient_id=eq.${grace.id}`, {
    read_at: new Date().toISOString(),
  });
  await expect(inbox.getByTestId('unread-count')).toHaveCount(0);
});
