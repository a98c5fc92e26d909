import { createConfirmedUser, expect, latestMail, linkIn, signIn, test, uniqueEmail } from './support.ts';

test('sign up, confirm from the email, and land signed in', async ({ page }) => {
  const email = uniqueEmail('signup');
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a-good-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  const mail = await latestMail(email, /Confirm/);
  await page.goto(linkIn(mail, '/auth/confirm'));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/w$/);
  await expect(page.getByRole('heading', { name: 'Your workspaces' })).toBeVisible();
  await page.goto('/account');
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/account');
  await expect(page).toHaveURL(/\/login\?next=%2Faccount$/);
});

test('a used confirmation link shows the SPEC message', async ({ page }) => {
  const email = uniqueEmail('reuse');
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a-good-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  const link = linkIn(await latestMail(email, /Confirm/), '/auth/confirm');
  await page.goto(link);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/w$/);
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.goto(link);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('This link has expired or was already used. Request a new one.')).toBeVisible();
});

test('password sign-in; a wrong password shows the SPEC message and keeps the email', async ({ page }) => {
  const { email, password } = await createConfirmedUser('login');
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Email or password is incorrect.')).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Password')).toHaveValue('');
  await signIn(page, email, password);
});

test('an unconfirmed account is told to confirm first', async ({ page }) => {
  const email = uniqueEmail('unconfirmed');
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a-good-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a-good-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Confirm your email first. We can send the link again.')).toBeVisible();
});

for (const next of ['//evil.example', '/\\evil', 'https://evil', 'javascript:alert(1)']) {
  test(`next=${next} lands on a local page`, async ({ page }) => {
    const { email, password } = await createConfirmedUser('next');
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/w$/);
  });
}

test('a sign-up with a taken email looks exactly like a new one', async ({ page }) => {
  const { email } = await createConfirmedUser('taken');
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('another-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
});

test('an unknown address gets the 404 page', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByText("We couldn't find that page.")).toBeVisible();
});
