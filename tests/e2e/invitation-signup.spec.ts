// Someone invited who has no account yet: "Create account" on the invitation opens sign-up with the
// invited address filled in, and confirming the email — by its link or by its code — lands them in
// the invited workspace as a member, the invitation accepted. Every email comes from one sender.
import type { Browser, Page } from '@playwright/test';
import {
  codeIn,
  createConfirmedUser,
  endpoints,
  expect,
  hydrated,
  latestMail,
  linkIn,
  pendingInvitation,
  serviceRest,
  signInAs,
  test,
  uniqueEmail,
} from './support.ts';

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

/** From the invitation's page, signed out: "Create account", the address already there. */
async function signUpFromInvitation(page: Page, link: string, email: string, workspace: string) {
  await page.goto(link);
  await page.getByRole('link', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(page.getByText(`Create your account to join ${workspace}.`)).toBeVisible();
  await hydrated(page);
  await expect(page.getByLabel('Email')).toHaveValue(email);
}

async function createAccount(page: Page) {
  await page.getByLabel('Password').fill('a-good-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
}

/** The workspace list shows `name` with the role `role`. */
async function expectMembership(page: Page, name: string, role: string) {
  await page.goto('/w');
  await expect(page.getByRole('link', { name: `${name} ${role}`, exact: true })).toBeVisible();
}

async function invitationOf(email: string): Promise<{ accepted_at: string | null }> {
  const rows = await serviceRest<Array<{ accepted_at: string | null }>>(
    'GET',
    `invitations?select=accepted_at&email=eq.${encodeURIComponent(email)}`,
  );
  expect(rows).toHaveLength(1);
  return rows[0] ?? { accepted_at: null };
}

/** The user metadata of the one member (not owner) of the workspace at `slug`, as the auth server keeps it. */
async function metadataOfMember(slug: string): Promise<Record<string, unknown>> {
  const [workspace] = await serviceRest<Array<{ id: string }>>('GET', `workspaces?select=id&slug=eq.${slug}`);
  const [member] = await serviceRest<Array<{ user_id: string }>>(
    'GET',
    `workspace_members?select=user_id&role=eq.member&workspace_id=eq.${workspace?.id}`,
  );
  const { apiUrl, serviceRoleKey } = endpoints();
  const res = await fetch(`${apiUrl}/auth/v1/admin/users/${member?.user_id}`, {
    headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { user_metadata: Record<string, unknown> }).user_metadata;
}

test('invited by email, creates an account, confirms by the link and is in the workspace', async ({
  page,
  browser,
}) => {
  // The admin invites through the members page; send-invitation emails the link.
  const owner = await createConfirmedUser('owner');
  await signInAs(page, owner);
  const slug = `crew-${Date.now().toString(36)}`;
  await page.getByLabel('Workspace name').fill('Crew');
  await page.getByLabel('Address').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Members' }).click();
  const email = uniqueEmail('newcomer');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Member' });
  await page.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByText(`Invitation emailed to ${email}.`)).toBeVisible();
  const invitation = await latestMail(email, /invited you to Crew on Crewboard/);

  const invitee = await newPage(browser);
  await signUpFromInvitation(invitee, linkIn(invitation, '/invite/'), email, 'Crew');
  await createAccount(invitee);

  const confirmation = await latestMail(email, /Confirm your Crewboard account/);
  // One sender for all mail: auth's confirmation and the function's invitation.
  expect(confirmation.From).toEqual(invitation.From);
  await invitee.goto(linkIn(confirmation, '/auth/confirm'));
  await invitee.getByRole('button', { name: 'Continue' }).click();
  await expect(invitee).toHaveURL(new RegExp(`/w/${slug}$`));
  expect((await invitationOf(email)).accepted_at).not.toBeNull();
  await expectMembership(invitee, 'Crew', 'Member');
  expect(await metadataOfMember(slug)).not.toHaveProperty('invitation');

  // The owner sees the newcomer among the members, and no open invitation left.
  await page.goto(`/w/${slug}/members`);
  await expect(page.getByLabel(`Role of ${email.split('@')[0]}`)).toHaveValue('member');
  await expect(page.getByText(`${email} · Member`)).toHaveCount(0);
  await invitee.context().close();
});

test('confirms by the code from the same email instead, and is in the workspace', async ({ page }) => {
  const email = uniqueEmail('coder');
  const { token, slug } = await pendingInvitation(email);
  await signUpFromInvitation(page, `/invite/${token}`, email, 'Team');
  await createAccount(page);

  // Typed where the page says it was sent.
  await hydrated(page);
  await page.getByLabel('Code').fill(codeIn(await latestMail(email, /Confirm your Crewboard account/)));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${slug}$`));
  expect((await invitationOf(email)).accepted_at).not.toBeNull();
  await expectMembership(page, 'Team', 'Member');

  // Carried once: the token is gone from the account, so a later sign-in is an ordinary one.
  expect(await metadataOfMember(slug)).not.toHaveProperty('invitation');
});

test('signing up from an invitation with another address does not accept it', async ({ page }) => {
  const invited = uniqueEmail('invited');
  const { token } = await pendingInvitation(invited);
  const other = uniqueEmail('someone-else');
  await signUpFromInvitation(page, `/invite/${token}`, invited, 'Team');
  await page.getByLabel('Email').fill(other);
  await createAccount(page);
  await page.goto(linkIn(await latestMail(other, /Confirm your Crewboard account/), '/auth/confirm'));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/w$/);
  await expect(page.getByRole('link', { name: /^Team / })).toHaveCount(0);
  expect((await invitationOf(invited)).accepted_at).toBeNull();
});

test('a token that is no open invitation leaves sign-up as it is', async ({ page }) => {
  await page.goto(`/signup?invitation=${'0'.repeat(64)}`);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(page.getByText(/Create your account to join/)).toHaveCount(0);
  await expect(page.getByLabel('Email')).toHaveValue('');
});
