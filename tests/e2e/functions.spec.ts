import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import {
  addMember,
  createConfirmedUser,
  endpoints,
  expect,
  latestMail,
  linkIn,
  signIn,
  test,
  uniqueEmail,
  projectPath,
  signInAs,
} from './support.ts';

// The two Edge Functions seen from the app: invitation emails go out through
// send-invitation with the inviter's session, and the board's "Export CSV" link streams
// export-tasks' file. Both run with JavaScript on and off.

async function asUser(browser: Browser, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email, password);
  return page;
}

async function service(path: string, init: RequestInit = {}): Promise<Response> {
  const { apiUrl, serviceRoleKey } = endpoints();
  return fetch(`${apiUrl}/rest/v1/${path}`, {
    ...init,
    headers: {
      apikey: serviceRoleKey,
      Authorization: `Bearer ${serviceRoleKey}`,
      'content-type': 'application/json',
      Prefer: 'return=representation',
    },
  });
}

/** A workspace made by `owner` in the UI, with a project and tasks made as the service role. */
async function boardWith(
  page: Page,
  titles: string[],
): Promise<{ slug: string; project: string; key: string }> {
  const slug = `fn-${Date.now().toString(36)}`;
  await page.getByLabel('Workspace name').fill('Functions');
  await page.getByLabel('Address').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${slug}`));
  const ws = (
    (await (await service(`workspaces?select=id&slug=eq.${slug}`)).json()) as Array<{ id: string }>
  )[0];
  const created = await service('projects', {
    method: 'POST',
    body: JSON.stringify({ workspace_id: ws?.id, name: 'Roadmap 2030' }),
  });
  const [made] = (await created.json()) as Array<{ id: string; key: string }>;
  const project = made?.id ?? '';
  for (const title of titles) {
    const res = await service('tasks', {
      method: 'POST',
      body: JSON.stringify({ workspace_id: ws?.id, project_id: project, title }),
    });
    expect(res.status).toBe(201);
  }
  return { slug, project, key: made?.key ?? '' };
}

test('an admin invites by email and the email arrives; a member cannot invite', async ({ page, browser }) => {
  const owner = await createConfirmedUser('owner');
  const admin = await createConfirmedUser('admin');
  const member = await createConfirmedUser('member');
  await signInAs(page, owner);
  const { slug } = await boardWith(page, []);
  await addMember(slug, admin.id, 'admin');
  await addMember(slug, member.id, 'member');

  const adminPage = await asUser(browser, admin.email, admin.password);
  await adminPage.goto(`/w/${slug}/members`);
  const invitee = uniqueEmail('invitee');
  await adminPage.getByLabel('Email', { exact: true }).fill(invitee);
  await adminPage.getByLabel('Role', { exact: true }).selectOption({ label: 'Viewer' });
  await adminPage.getByRole('button', { name: 'Invite' }).click();
  await expect(adminPage.getByText(`Invitation emailed to ${invitee}.`)).toBeVisible();
  const mail = await latestMail(invitee, /invited you to Functions on Crewboard/);
  expect(mail.Text).toContain('as a viewer');
  const link = linkIn(mail, '/invite/');
  expect(new URL(link).origin).toBe(new URL(endpoints().appUrl).origin);

  const memberPage = await asUser(browser, member.email, member.password);
  await memberPage.goto(`/w/${slug}/members`);
  await expect(memberPage.getByRole('button', { name: 'Invite' })).toHaveCount(0);
  const refused = uniqueEmail('refused');
  const res = await memberPage.request.post(`/w/${slug}/members`, {
    form: { intent: 'invite', email: refused, role: 'member' },
    headers: { Origin: endpoints().appUrl },
    maxRedirects: 0,
  });
  expect(res.status()).toBeGreaterThanOrEqual(400);
  await expect(latestMail(refused)).rejects.toThrow(/no mail/);
});

test('a viewer downloads the board as CSV holding exactly its tasks; an outsider gets 404', async ({
  page,
  browser,
}) => {
  const owner = await createConfirmedUser('owner');
  const viewer = await createConfirmedUser('viewer');
  const outsider = await createConfirmedUser('outsider');
  await signInAs(page, owner);
  const titles = ['Plan the launch', 'Write, then "ship"', '=1+1'];
  const { slug, key } = await boardWith(page, titles);
  // Made without a key: the database gave it the one its name suggests.
  expect(key).toBe('ROA');
  await addMember(slug, viewer.id, 'viewer');

  const viewerPage = await asUser(browser, viewer.email, viewer.password);
  await viewerPage.goto(projectPath(slug, key));
  const [download] = await Promise.all([
    viewerPage.waitForEvent('download'),
    viewerPage.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('roadmap-2030-tasks.csv');
  const csv = readFileSync(await download.path(), 'utf8');
  const lines = csv.split('\r\n').filter(Boolean);
  expect(lines[0]).toBe(
    'task,number,title,status,priority,assignee,due date,created,updated,description,labels',
  );
  expect(lines.slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual([
    'ROA-1,1,Plan the launch',
    'ROA-2,2,"Write',
    "ROA-3,3,'=1+1",
  ]);
  expect(lines[2]).toContain('"Write, then ""ship"""');
  expect(lines).toHaveLength(titles.length + 1);

  const outsiderPage = await asUser(browser, outsider.email, outsider.password);
  const res = await outsiderPage.request.get(`${projectPath(slug, key)}/export.csv`, { maxRedirects: 0 });
  expect(res.status()).toBe(404);
});
