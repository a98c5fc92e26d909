// Issue-to-inbox-to-mail, with JavaScript on and off: Ada assigns Grace a task and mentions her in
// a comment; the database writes Grace's two notifications, her inbox shows them, and once the
// schedule runs (every 2 s in the e2e stack) one email lists both; its link unsubscribes her.
import {
  accessTokenOf,
  addMember,
  boardOfTasks,
  createConfirmedUser,
  endpoints,
  expect,
  restAs,
  serviceRest,
  signInAs,
  test,
} from './support.ts';

interface Message {
  ID: string;
  Subject: string;
  Text: string;
  ListUnsubscribe: { Links: string[] };
}

test('a mention and an assignment reach Grace’s inbox and one email, which unsubscribes her', async ({
  page,
}) => {
  const { owner, boardPath, workspaceId, projectId } = await boardOfTasks(1);
  const slug = boardPath.split('/')[2] ?? '';
  const grace = await createConfirmedUser('grace');
  await addMember(slug, grace.id, 'member');
  await serviceRest('PATCH', `profiles?id=eq.${owner.id}`, { display_name: 'Ada Lovelace' });
  await serviceRest('PATCH', `profiles?id=eq.${grace.id}`, { display_name: 'Grace Hopper' });
  const [task] = await serviceRest<Array<{ id: string }>>(
    'GET',
    `tasks?select=id&project_id=eq.${projectId}&number=eq.1`,
  );

  // Ada's two changes, together (the schedule must not fall between them for one email to hold both).
  const ada = await accessTokenOf(owner);
  await Promise.all([
    restAs(ada, 'PATCH', `tasks?id=eq.${task?.id}`, { assignee_id: grace.id }),
    restAs(ada, 'POST', 'comments', {
      workspace_id: workspaceId,
      task_id: task?.id,
      body: '@grace could you review this before Friday?',
    }),
  ]);
  const written = await serviceRest<Array<{ kind: string }>>(
    'GET',
    `notifications?select=kind&recipient_id=eq.${grace.id}&order=kind`,
  );
  expect(written.map((n) => n.kind)).toEqual(['assigned', 'mentioned']);

  // One email, listing both.
  const { mailUrl } = endpoints();
  const mails = async () => {
    const res = await page.request.get(
      `${mailUrl}/api/v1/search?query=${encodeURIComponent(`to:"${grace.email}"`)}`,
    );
    return ((await res.json()) as { messages: Array<{ ID: string }> }).messages;
  };
  await expect.poll(async () => (await mails()).length, { timeout: 30_000 }).toBe(1);
  const [found] = await mails();
  const mail = (await (await page.request.get(`${mailUrl}/api/v1/message/${found?.ID}`)).json()) as Message;
  expect(mail.Subject).toBe('2 new notifications on Crewboard');
  expect(mail.Text).toContain('Ada Lovelace assigned you');
  expect(mail.Text).toContain('Ada Lovelace mentioned you on');
  expect(mail.Text).toContain('could you review this before Friday?');

  // Signed in, the board's sidebar counts them (from the page's own call: without JavaScript too),
  // and her inbox shows them.
  await signInAs(page, grace);
  const inboxLink = page
    .getByRole('navigation', { name: 'Notifications' })
    .getByRole('link', { name: /^Inbox/ });
  await page.goto(boardPath);
  await expect(inboxLink).toHaveAccessibleName('Inbox 2 unread');
  // So does every other workspace page, which reads its membership on its own.
  await page.goto(`/w/${slug}/members`);
  await expect(inboxLink).toHaveAccessibleName('Inbox 2 unread');
  await page.goto('/inbox');
  const list = page.getByRole('main');
  await expect(list.getByText(/Ada Lovelace.*assigned you/)).toBeVisible();
  await expect(list.getByText(/Ada Lovelace.*mentioned you/)).toBeVisible();

  // The link in the email turns email off, with no sign-in needed.
  await page.context().clearCookies();
  await page.goto(mail.ListUnsubscribe.Links[0] ?? '');
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('status')).toContainText('You are unsubscribed');
  const [prefs] = await serviceRest<Array<{ email_frequency: string }>>(
    'GET',
    `notification_preferences?select=email_frequency&user_id=eq.${grace.id}`,
  );
  expect(prefs?.email_frequency).toBe('never');
  // And no second email came meanwhile.
  expect(await mails()).toHaveLength(1);
});
