// The inbox, with JavaScript on and off: a mention written by a real signed-in change (the database's
// trigger writes the notification) shows in the mentioned person's inbox with the link to its task;
// marking read, unread, all read and archiving work; a malformed id is a 400 that says so.
import {
  addMember,
  boardOfTasks,
  createConfirmedUser,
  endpoints,
  expect,
  serviceRest,
  signInAs,
  taskPath,
  test,
} from './support.ts';

interface Notification {
  id: number;
  kind: string;
  read_at: string | null;
  archived_at: string | null;
}

/** A change made as `account`: their password's session token, through the REST API under RLS. */
async function changeAs(
  account: { email: string; password: string },
  method: 'POST' | 'PATCH',
  pathAndQuery: string,
  body: Record<string, unknown>,
) {
  const { apiUrl, serviceRoleKey } = endpoints();
  const signIn = await fetch(`${apiUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: serviceRoleKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  expect(signIn.status).toBe(200);
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  const res = await fetch(`${apiUrl}/rest/v1/${pathAndQuery}`, {
    method,
    headers: { apikey: serviceRoleKey, Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.ok, await res.clone().text()).toBe(true);
}

test('Ada mentions Grace: her inbox shows it, and she marks it read, unread, all read and archives it', async ({
  page,
}) => {
  const { owner: ada, boardPath, workspaceId } = await boardOfTasks(1);
  const slug = boardPath.split('/')[2] ?? '';
  const grace = await createConfirmedUser('inbox-grace');
  await serviceRest('PATCH', `profiles?id=eq.${ada.id}`, { display_name: 'Ada Lovelace' });
  await serviceRest('PATCH', `profiles?id=eq.${grace.id}`, { display_name: 'Grace Hopper' });
  await addMember(slug, grace.id, 'member');
  const [task] = await serviceRest<Array<{ id: string; number: number }>>(
    'GET',
    `tasks?workspace_id=eq.${workspaceId}&select=id,number`,
  );
  await changeAs(ada, 'POST', 'comments', {
    workspace_id: workspaceId,
    task_id: task?.id,
    body: '@grace could you check the venue?',
  });
  // And assigns her the task: a second notification, for marking all read.
  await changeAs(ada, 'PATCH', `tasks?id=eq.${task?.id}`, { assignee_id: grace.id });
  const mine = () =>
    serviceRest<Notification[]>(
      'GET',
      `notifications?recipient_id=eq.${grace.id}&select=id,kind,read_at,archived_at&order=id`,
    );
  const mention = (await mine()).find((n) => n.kind === 'mentioned');
  expect(mention).toBeTruthy();

  await signInAs(page, grace);
  await page.goto('/inbox');
  await expect(page.getByRole('heading', { name: 'Inbox' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Notifications' });
  const row = list.getByRole('listitem').filter({ hasText: 'Ada Lovelace mentioned you in' });
  await expect(row).toContainText('BAC-1 Task 1');
  await expect(row).toContainText('could you check the venue?');
  await expect(row).toContainText('Long board');
  await expect(row.getByRole('link', { name: 'BAC-1 Task 1' })).toHaveAttribute(
    'href',
    taskPath(slug, 'BAC', task?.number ?? 1),
  );
  await expect(row.getByText('Unread', { exact: true })).toBeVisible();

  await row.getByRole('button', { name: 'Mark read' }).click();
  await expect(row.getByRole('button', { name: 'Mark unread' })).toBeVisible();
  await expect(row.getByText('Unread', { exact: true })).toHaveCount(0);
  await expect.poll(async () => (await mine()).find((n) => n.id === mention?.id)?.read_at).not.toBeNull();

  await row.getByRole('button', { name: 'Mark unread' }).click();
  await expect(row.getByText('Unread', { exact: true })).toBeVisible();
  await expect.poll(async () => (await mine()).find((n) => n.id === mention?.id)?.read_at).toBeNull();

  // Mark all read: the mention and the assignment alike.
  await expect(
    list.getByRole('listitem').filter({ hasText: 'Ada Lovelace assigned you BAC-1 Task 1' }),
  ).toContainText('Unread');
  expect((await mine()).length).toBe(2);
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(list.getByText('Unread', { exact: true })).toHaveCount(0);
  await expect.poll(async () => (await mine()).filter((n) => n.read_at === null).length).toBe(0);

  // A malformed id is refused with a 400 that says why; nothing changes.
  const origin = new URL(page.url()).origin;
  const bad = await page.request.post('/inbox', {
    form: { intent: 'archive', id: 'not-an-id' },
    headers: { Origin: origin, 'Sec-Fetch-Site': 'same-origin' },
    maxRedirects: 0,
  });
  expect(bad.status()).toBe(400);
  expect(await bad.text()).toContain('not a notification');

  // The link opens the task.
  await row.getByRole('link', { name: 'BAC-1 Task 1' }).click();
  await expect(page).toHaveURL(new RegExp(`${taskPath(slug, 'BAC', task?.number ?? 1)}$`));

  await page.goto('/inbox');
  const notifications = await mine();
  for (const [kind, text] of [
    ['mentioned', 'Ada Lovelace mentioned you in'],
    ['assigned', 'Ada Lovelace assigned you'],
  ] as const) {
    const item = notifications.find((n) => n.kind === kind);
    const archived = list.getByRole('listitem').filter({ hasText: text });
    await archived.getByRole('button', { name: 'Archive' }).click();
    await expect(archived).toHaveCount(0);
    await expect.poll(async () => (await mine()).find((n) => n.id === item?.id)?.archived_at).not.toBeNull();
  }
  await expect(page.getByText('You’re all caught up.')).toBeVisible();
  expect((await mine()).every((n) => n.archived_at !== null)).toBe(true);
});

test('a long inbox comes a page at a time: Show older, then back to the newest', async ({ page }) => {
  const { owner: ada, boardPath, workspaceId } = await boardOfTasks(1);
  const slug = boardPath.split('/')[2] ?? '';
  const grace = await createConfirmedUser('inbox-pages');
  await addMember(slug, grace.id, 'member');
  const [task] = await serviceRest<Array<{ id: string }>>(
    'GET',
    `tasks?workspace_id=eq.${workspaceId}&select=id`,
  );
  // 53 notifications, written oldest first: Item 1 … Item 53.
  await serviceRest(
    'POST',
    'notifications',
    Array.from({ length: 53 }, (_, i) => ({
      recipient_id: grace.id,
      workspace_id: workspaceId,
      task_id: task?.id,
      actor_id: ada.id,
      kind: 'assigned',
      data: { task: { ref: `BAC-${i + 1}`, title: `Item ${i + 1}` } },
    })),
  );
  await signInAs(page, grace);
  await page.goto('/inbox');
  const items = page.getByRole('list', { name: 'Notifications' }).getByRole('listitem');
  await expect(items).toHaveCount(50);
  await expect(items.first()).toContainText('Item 53');
  await expect(items.last()).toContainText('Item 4');
  await expect(page.getByRole('link', { name: 'Back to the newest' })).toHaveCount(0);

  await page.getByRole('link', { name: 'Show older' }).click();
  await expect(items).toHaveCount(3);
  await expect(items.first()).toContainText('Item 3');
  await expect(items.last()).toContainText('Item 1');
  await expect(page.getByRole('link', { name: 'Show older' })).toHaveCount(0);
  // Marking one read there keeps the page.
  await items.first().getByRole('button', { name: 'Mark read' }).click();
  await expect(items.first().getByRole('button', { name: 'Mark unread' })).toBeVisible();
  await expect(items).toHaveCount(3);
  expect(new URL(page.url()).searchParams.get('before')).not.toBeNull();

  await page.getByRole('link', { name: 'Back to the newest' }).click();
  await expect(items).toHaveCount(50);
  await expect(items.first()).toContainText('Item 53');
});
