import type { Browser, Page } from '@playwright/test';
import {
  createConfirmedUser,
  expect,
  hydrated,
  latestMail,
  linkIn,
  signIn,
  test,
  signInAs,
} from './support.ts';

async function asUser(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, password);
  return page;
}

/** Invites by email and returns the link from the invitation email in the mailbox. */
async function invite(page: Page, email: string, role: 'Member' | 'Viewer' | 'Admin'): Promise<string> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption({ label: role });
  await page.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByText(`Invitation emailed to ${email}.`)).toBeVisible();
  await expect(page.getByText(`${email} · ${role}`)).toBeVisible();
  const mail = await latestMail(email, /invited you to Team on Crewboard/);
  expect(mail.Text).toContain(`as a ${role.toLowerCase()}`);
  return linkIn(mail, '/invite/');
}

test('invite a member and a viewer, who accept from their links; change a role, remove, leave', async ({
  page,
  browser,
}) => {
  const owner = await createConfirmedUser('owner');
  const member = await createConfirmedUser('member');
  const viewer = await createConfirmedUser('viewer');
  const stranger = await createConfirmedUser('stranger');
  await signInAs(page, owner);
  const slug = `team-${Date.now().toString(36)}`;
  await page.getByLabel('Workspace name').fill('Team');
  await page.getByLabel('Address').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Members' }).click();

  const memberLink = await invite(page, member.email, 'Member');
  const firstViewerLink = await invite(page, viewer.email, 'Viewer');
  await expect(page.getByText(`${member.email} · Member`)).toBeVisible();

  // Resend emails a fresh link; the first one stops working.
  await page
    .getByRole('listitem')
    .filter({ hasText: `${viewer.email} · Viewer` })
    .getByRole('button', { name: 'Resend' })
    .click();
  await expect(page.getByText(`Invitation emailed to ${viewer.email}.`)).toBeVisible();
  await expect
    .poll(async () => linkIn(await latestMail(viewer.email, /invited you/), '/invite/'))
    .not.toBe(firstViewerLink);
  const viewerLink = linkIn(await latestMail(viewer.email, /invited you/), '/invite/');

  // Someone else's session cannot use the member's invitation.
  const strangerPage = await asUser(browser, stranger.email, stranger.password);
  await strangerPage.goto(memberLink);
  await expect(
    strangerPage.getByText(
      `This invitation is for ${member.email}, but you are signed in as ${stranger.email}.`,
    ),
  ).toBeVisible();
  await expect(strangerPage.getByRole('button', { name: 'Accept invitation' })).toHaveCount(0);

  // Signed out, the link asks for the invited address and comes back after sign-in.
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await memberPage.goto(memberLink);
  await expect(
    memberPage.getByText(`This invitation is for ${member.email}.`, { exact: false }),
  ).toBeVisible();
  await memberPage.getByRole('link', { name: 'Sign in' }).click();
  await memberPage.getByLabel('Email', { exact: true }).fill(member.email);
  await memberPage.getByLabel('Password', { exact: true }).fill(member.password);
  await memberPage.getByRole('button', { name: 'Sign in' }).click();
  await memberPage.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(memberPage).toHaveURL(new RegExp(`/w/${slug}$`));

  const viewerPage = await asUser(browser, viewer.email, viewer.password);
  await viewerPage.goto(firstViewerLink);
  await expect(
    viewerPage.getByText(/This invitation has expired, was revoked, or is for another email/),
  ).toBeVisible();
  await viewerPage.goto(viewerLink);
  await viewerPage.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(viewerPage).toHaveURL(new RegExp(`/w/${slug}$`));

  // The owner makes the viewer a member, then removes them; the member leaves on their own.
  // (A fresh GET, not a reload: without JavaScript a reload would post the last form again.)
  await page.goto(`/w/${slug}/members`);
  await hydrated(page);
  const viewerName = viewer.email.split('@')[0] ?? '';
  await page.getByLabel(`Role of ${viewerName}`).selectOption('member');
  // The form's answer, not the select's own value, says the change was saved: leaving the page
  // before it arrives would cancel the save.
  const saved = page.waitForResponse(
    (response) => response.request().method() === 'POST' && response.url().includes('/members'),
  );
  await page
    .getByRole('listitem')
    .filter({ hasText: viewerName })
    .getByRole('button', { name: 'Change role' })
    .click();
  expect((await saved).status()).toBeLessThan(400);
  await expect(page.getByLabel(`Role of ${viewerName}`)).toHaveValue('member');
  await page.goto(`/w/${slug}/members`);
  await expect(page.getByLabel(`Role of ${viewerName}`)).toHaveValue('member');
  // In dark mode the role select is drawn on the dark surface like the invitation's, not as a grey
  // native control.
  await page.emulateMedia({ colorScheme: 'dark' });
  const background = (label: string) =>
    page.getByLabel(label, { exact: true }).evaluate((select) => getComputedStyle(select).backgroundColor);
  expect(await background(`Role of ${viewerName}`)).toBe(await background('Role'));
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('button', { name: `Remove ${viewerName}` }).click();
  await expect(page.getByText(viewerName)).toHaveCount(0);

  await memberPage
    .getByRole('navigation', { name: 'Workspace' })
    .getByRole('link', { name: 'Members' })
    .click();
  await memberPage.getByRole('button', { name: 'Leave workspace' }).click();
  await expect(memberPage).toHaveURL(/\/w$/);
  expect((await memberPage.goto(`/w/${slug}`))?.status()).toBe(404);
});
