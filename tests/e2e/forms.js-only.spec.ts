import type { Page } from '@playwright/test';
import { createConfirmedUser, expect, signIn, test } from './support.ts';

/** Counts the form posts the page sends from now on. */
function countPosts(page: Page): () => number {
  let posts = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST') posts += 1;
  });
  return () => posts;
}

test('the browser checks a form with its schema before sending it, then as the person types', async ({
  page,
}) => {
  await page.goto('/signup');
  // Once the page is interactive the schema speaks, not the browser's own bubbles.
  await expect(page.locator('form#signup')).toHaveAttribute('novalidate', '');
  const posts = countPosts(page);

  await page.getByLabel('Email').fill('not-an-address');
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  const email = page.getByLabel('Email');
  const password = page.getByLabel('Password');
  await expect(email).toHaveAccessibleDescription('Enter a valid email address.');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(password).toHaveAccessibleDescription(/Use 8 to 72 characters/);
  // The first field in error has the focus, and nothing was sent.
  await expect(email).toBeFocused();
  expect(posts()).toBe(0);

  // Each field's error goes as soon as what is typed is right; the other stays until it is.
  await email.fill('someone@example.test');
  await expect(email).not.toHaveAttribute('aria-invalid');
  await expect(page.getByText('Enter a valid email address.')).toHaveCount(0);
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await password.fill('a-good-password');
  await expect(password).not.toHaveAttribute('aria-invalid');
  expect(posts()).toBe(0);
});

test("the server's answer shows in the same places, and a form it resets is emptied", async ({ page }) => {
  const { email, password } = await createConfirmedUser('forms');
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Email or password is incorrect.');
  await expect(page.getByLabel('Email')).toHaveValue(email);

  await signIn(page, email, password);
  await page.goto('/account/security');
  const form = page.locator('form#change-email');
  await form.getByLabel('Email').fill(`new-${email}`);
  await form.getByLabel('Current password').fill(password);
  await form.getByRole('button', { name: 'Change email' }).click();
  await expect(page.getByText(/To finish, follow the links we sent/)).toBeVisible();
  // The reply resets the form: nothing typed stays in it.
  await expect(form.getByLabel('Email')).toHaveValue('');
  await expect(form.getByLabel('Current password')).toHaveValue('');
});
