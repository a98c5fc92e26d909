// Notification settings and the unsubscribe link of a notification email, with JavaScript on and
// off. The email comes from the backend's schedule (every 2 s in the e2e stack) through
// send-notifications into the local mailbox; the notification is written here as notify's triggers
// would write it.
import type { Page } from '@playwright/test';
import {
  createConfirmedUser,
  endpoints,
  expect,
  expectFlashOnce,
  hydrated,
  serviceRest,
  signInAs,
  test,
} from './support.ts';

interface Preferences {
  inbox_kinds: string[];
  email_kinds: string[];
  email_frequency: string;
}

const preferencesOf = async (id: string) =>
  (await serviceRest<Preferences[]>('GET', `notification_preferences?user_id=eq.${id}`))[0];

/** A notification for `id` in their personal workspace, and the email it becomes. */
async function emailFor(account: { id: string; email: string }, page: Page) {
  const [member] = await serviceRest<Array<{ workspace_id: string }>>(
    'GET',
    `workspace_members?user_id=eq.${account.id}&select=workspace_id`,
  );
  await serviceRest('POST', 'notifications', {
    recipient_id: account.id,
    workspace_id: member?.workspace_id,
    kind: 'added_to_workspace',
    data: { workspace: { slug: 'acme', name: 'Acme' }, role: 'member' },
  });
  const { mailUrl } = endpoints();
  let id = '';
  await expect
    .poll(
      async () => {
        const res = await page.request.get(
          `${mailUrl}/api/v1/search?query=${encodeURIComponent(`to:"${account.email}"`)}`,
        );
        id = ((await res.json()) as { messages: Array<{ ID: string }> }).messages[0]?.ID ?? '';
        return id;
      },
      { timeout: 30_000 },
    )
    .not.toBe('');
  const res = await page.request.get(`${mailUrl}/api/v1/message/${id}`);
  return (await res.json()) as {
    Subject: string;
    HTML: string;
    ListUnsubscribe: { Links: string[]; HeaderPost: string };
  };
}

test('notification settings: what goes where, and how often email comes', async ({ page }) => {
  const account = await createConfirmedUser('prefs');
  await signInAs(page, account);
  await page.goto('/account/notifications');
  await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  // Everything, as it happens, by default.
  await expect(page.getByRole('checkbox', { name: 'Someone mentions you: by email' })).toBeChecked();
  await expect(page.getByRole('radio', { name: /As it happens/ })).toBeChecked();

  await page.getByRole('checkbox', { name: 'Someone moves a task you watch: in the inbox' }).uncheck();
  await page.getByRole('checkbox', { name: 'Someone comments on a task you watch: by email' }).uncheck();
  await page.getByRole('radio', { name: 'At most once a day' }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expectFlashOnce(page, 'Saved.');
  await expect(page.getByRole('radio', { name: 'At most once a day' })).toBeChecked();
  await expect(
    page.getByRole('checkbox', { name: 'Someone moves a task you watch: in the inbox' }),
  ).not.toBeChecked();
  const saved = await preferencesOf(account.id);
  expect(saved?.email_frequency).toBe('daily');
  expect(saved?.inbox_kinds).not.toContain('status_changed');
  expect(saved?.email_kinds).not.toContain('commented');
  expect(saved?.email_kinds).toContain('mentioned');

  // A value no form offers is refused beside its field, and nothing changes.
  await page.goto('/account/notifications');
  await hydrated(page);
  // (Set without a click: React puts a radio's value back after a change event.)
  await page.getByRole('radio', { name: 'Never' }).evaluate((radio: HTMLInputElement) => {
    radio.value = 'weekly';
    radio.checked = true;
  });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    page.getByRole('group', { name: 'How often email may come' }).getByRole('alert'),
  ).toContainText('Choose how often email may come.');
  expect((await preferencesOf(account.id))?.email_frequency).toBe('daily');
});

test('the unsubscribe link of a notification email turns email off, without signing in', async ({ page }) => {
  const account = await createConfirmedUser('unsub');
  const mail = await emailFor(account, page);
  expect(mail.Subject).toContain('added you to Acme');
  expect(mail.ListUnsubscribe.HeaderPost).toBe('List-Unsubscribe=One-Click');
  const link = mail.ListUnsubscribe.Links[0] ?? '';
  expect(mail.HTML).toContain(`href="${link}"`);

  // A changed link says so and changes nothing.
  await page.goto(link.slice(0, -1) + (link.endsWith('0') ? '1' : '0'));
  await expect(page.getByRole('alert')).toContainText('not valid');
  expect((await preferencesOf(account.id))?.email_frequency ?? 'instant').toBe('instant');

  await page.goto(link);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('status')).toContainText('You are unsubscribed');
  expect((await preferencesOf(account.id))?.email_frequency).toBe('never');
});

test('a mail client’s one-click POST (RFC 8058) unsubscribes too', async ({ page }) => {
  const account = await createConfirmedUser('oneclick');
  const mail = await emailFor(account, page);
  const link = mail.ListUnsubscribe.Links[0] ?? '';
  // From the mail provider's servers: no Origin, no cookies, the RFC's body.
  const res = await page.request.post(link, { form: { 'List-Unsubscribe': 'One-Click' } });
  expect(res.status()).toBe(200);
  expect((await preferencesOf(account.id))?.email_frequency).toBe('never');
});
