// The sidebar's unread count follows the inbox live: a mention written by someone else shows on an
// open page without a reload, and marking it read elsewhere takes it away.
import { ANON_KEY } from '../../emulator/keys.ts';
import {
  addMember,
  boardOfTasks,
  createConfirmedUser,
  endpoints,
  expect,
  hydrated,
  serviceRest,
  signInAs,
  test,
} from './support.ts';

/** An access token for `account`, as supabase-js gets one (password grant). */
async function tokenOf(account: { email: string; password: string }): Promise<string> {
  const { apiUrl } = endpoints();
  const res = await fetch(`${apiUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

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
  const { apiUrl } = endpoints();
  const res = await fetch(`${apiUrl}/rest/v1/comments`, {
    method: 'POST',
    headers: {
      apikey: ANON_KEY,
      Authorization: `Bearer ${await tokenOf(owner)}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ workspace_id: workspaceId, task_id: task?.id, body: 'Could you look, @grace?' }),
  });
  expect(res.status).toBe(201);
  await expect(inbox).toHaveAccessibleName('Inbox 1 unread');

  // Read elsewhere (another tab, the inbox): the count goes.
  await serviceRest('PATCH', `notifications?recipient_id=eq.${grace.id}`, {
    read_at: new Date().toISOString(),
  });
  await expect(inbox.getByTestId('unread-count')).toHaveCount(0);
});
