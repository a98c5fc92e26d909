// Import from a project's settings, with JavaScript and without: a CSV with one bad row is previewed
// with that row and its reason; the fixed file imports, and its tasks are on the board.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, flash, hydrated, newBoard, test } from './support.ts';

const withJavaScript = () => test.info().project.use.javaScriptEnabled !== false;

const csv = (priority: string) =>
  'title,status,priority,due date,description,labels\r\n' +
  'Write the launch post,To do,high,2026-06-01,"First draft, then review",marketing\r\n' +
  `Fix the login loop,In progress,${priority},,Safari only,bug\r\n` +
  '=SUM(A1) looks like a formula,Done,low,,,\r\n';

async function upload(page: Page, slug: string, body: string) {
  await page.goto(`/w/${slug}/p/boa/settings`);
  if (withJavaScript()) await hydrated(page);
  const section = page.getByRole('region', { name: 'Import tasks' });
  await section
    .getByLabel('File')
    .setInputFiles({ name: 'tasks.csv', mimeType: 'text/csv', buffer: Buffer.from(body) });
  await section.getByRole('button', { name: 'Upload and preview' }).click();
  await expect(page.getByRole('heading', { name: 'Board: import preview' })).toBeVisible();
}

test('a CSV with a bad row is previewed with it; the fixed file imports onto the board', async ({
  page,
  signedIn,
}) => {
  void signedIn;
  const slug = await newBoard(page, 'import');
  await expect(page).toHaveURL(new RegExp(`/w/${slug}/p/boa`));

  await upload(page, slug, csv('soon'));
  const problems = page.getByRole('region', { name: '1 row cannot be imported' });
  await expect(problems.getByRole('row', { name: /Line 3/ })).toContainText(
    'the priority “soon” is not one of none, low, medium, high, urgent',
  );
  await expect(page.getByRole('button', { name: 'Import 2 tasks' })).toBeVisible();
  // axe runs inside the page: with JavaScript only (the page is the same without it).
  if (withJavaScript()) {
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(
      violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
    ).toEqual([]);
  }
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { name: 'Board: settings' })).toBeVisible();

  await upload(page, slug, csv('urgent'));
  await expect(page.getByText('cannot be imported')).toHaveCount(0);
  await expect(page.getByText('New labels: “marketing”, “bug”.')).toBeVisible();
  await page.getByRole('button', { name: 'Import 3 tasks' }).click();

  await expect(flash(page, 'The tasks were imported.')).toBeVisible();
  for (const title of ['Write the launch post', 'Fix the login loop', '=SUM(A1) looks like a formula'])
    await expect(
      page.getByRole('link', { name: new RegExp(title.replace(/[()=]/g, '.')) }).first(),
    ).toBeVisible();
});
