import type { Page } from '@playwright/test';
import { createConfirmedUser, expect, projectPath, signIn, taskPath, test, openNewTask } from './support.ts';

// Readable addresses: a project's key names its board (`/w/northwind/p/web`) and its tasks
// (`WEB-12`, `/w/northwind/p/web/t/12`); the UUID addresses of before answer with a 301 to them.

const DEMO_PROJECT = 'c0000000-0000-4000-8000-000000000001';

test.describe('the demo board', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, 'grace@demo.crewboard.test', 'crewboard-demo');
  });

  test('old UUID addresses answer 301 with the key address, path and query kept', async ({ page }) => {
    const cases = [
      [`/w/northwind/p/${DEMO_PROJECT}`, projectPath('northwind', 'WEB')],
      [`/w/northwind/p/${DEMO_PROJECT}?todo=100`, `${projectPath('northwind', 'WEB')}?todo=100`],
      [`/w/northwind/p/${DEMO_PROJECT}/t/12?todo=100`, `${taskPath('northwind', 'WEB', 12)}?todo=100`],
      [`/w/northwind/p/${DEMO_PROJECT}/export.csv`, `${projectPath('northwind', 'WEB')}/export.csv`],
      [`/w/northwind/p/${DEMO_PROJECT.toUpperCase()}/t/3`, taskPath('northwind', 'WEB', 3)],
    ];
    for (const [old, now] of cases) {
      const res = await page.request.get(old ?? '', { maxRedirects: 0 });
      expect(res.status(), old).toBe(301);
      expect(res.headers().location, old).toBe(now);
    }
    // A UUID that is no project of this workspace: the same 404 as any other unknown address.
    const unknown = await page.request.get('/w/northwind/p/c0000000-0000-4000-8000-0000000000ff', {
      maxRedirects: 0,
    });
    expect(unknown.status()).toBe(404);

    // Followed, they work.
    await page.goto(`/w/northwind/p/${DEMO_PROJECT}/t/12`);
    await expect(page).toHaveURL(taskPath('northwind', 'WEB', 12));
    await expect(page.getByRole('complementary', { name: 'Task WEB-12' })).toBeVisible();
    const csv = await page.request.get(`/w/northwind/p/${DEMO_PROJECT}/export.csv`);
    expect(csv.status()).toBe(200);
    expect((await csv.text()).split('\r\n')[1]).toMatch(/^WEB-1,1,/);
  });

  test('a task address opens its panel over the board; the key is read in any case', async ({ page }) => {
    await page.goto('/w/northwind/p/web/t/12');
    await expect(page.getByRole('heading', { name: 'Website relaunch' })).toBeVisible();
    const panel = page.getByRole('complementary', { name: 'Task WEB-12' });
    await expect(panel).toBeVisible();
    await expect(panel.getByText('WEB-12', { exact: true })).toBeVisible();

    const res = await page.request.get('/w/northwind/p/WEB/t/12?done=60', { maxRedirects: 0 });
    expect(res.status()).toBe(301);
    expect(res.headers().location).toBe('/w/northwind/p/web/t/12?done=60');
    await page.goto('/w/northwind/p/Web/t/12');
    await expect(page).toHaveURL('/w/northwind/p/web/t/12');
    await expect(page.getByRole('complementary', { name: 'Task WEB-12' })).toBeVisible();
    // Cards are named by key too.
    await expect(page.getByRole('link', { name: /^WEB-1 / })).toBeVisible();
  });

  test("another workspace's key is a plain 404", async ({ page }) => {
    for (const path of ['/w/northwind/p/nope', '/w/nowhere-at-all/p/web', '/w/northwind/p/nope/t/1']) {
      const res = await page.request.get(path, { maxRedirects: 0 });
      expect(res.status(), path).toBe(404);
    }
  });
});

async function newWorkspace(page: Page): Promise<string> {
  const { email, password } = await createConfirmedUser('keys');
  await signIn(page, email, password);
  const slug = `keys-${Date.now().toString(36)}`;
  await page.goto('/w');
  await page.getByLabel('Workspace name').fill('Keys');
  await page.getByLabel('Address').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${slug}$`));
  return slug;
}

test('a project is made with the key typed, or with the one its name suggests', async ({ page }) => {
  const slug = await newWorkspace(page);
  await page.getByLabel('Project name').fill('Launch');
  await page.getByLabel('Key').fill('rocket');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page).toHaveURL(projectPath(slug, 'ROCKET'));
  await expect(page.getByRole('heading', { name: 'Launch' })).toBeVisible();

  await page.goto(`/w/${slug}`);
  await page.locator('summary', { hasText: 'New project' }).click();
  await page.getByLabel('Project name').fill('Launch party');
  // With JavaScript the key follows the name; without, it stays blank and the server derives it.
  const js = test.info().project.use.javaScriptEnabled !== false;
  await expect(page.getByLabel('Key')).toHaveValue(js ? 'LAU' : '');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page).toHaveURL(projectPath(slug, 'LAU'));
  await expect(page.getByRole('heading', { name: 'Launch party' })).toBeVisible();
  await openNewTask(page.getByRole('region', { name: 'To do' }));
  await page.getByRole('region', { name: 'To do' }).getByLabel('Title').fill('First');
  await page.getByRole('region', { name: 'To do' }).getByRole('button', { name: 'Create task' }).click();
  await expect(page.getByRole('link', { name: 'LAU-1 First' })).toBeVisible();
});

test('a key already used in the workspace is refused next to the field, the input kept', async ({ page }) => {
  const slug = await newWorkspace(page);
  await page.getByLabel('Project name').fill('Launch');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page).toHaveURL(projectPath(slug, 'LAU'));

  await page.goto(`/w/${slug}`);
  await page.locator('summary', { hasText: 'New project' }).click();
  await page.getByLabel('Project name').fill('Another');
  await page.getByLabel('Key').fill('lau');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByText('That key is taken in this workspace. Try another.')).toBeVisible();
  await expect(page.getByLabel('Key')).toHaveValue('lau');
  await expect(page.getByLabel('Key')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Project name')).toHaveValue('Another');

  await page.getByLabel('Key').fill('x');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByText('Use 2 to 10 letters or digits, starting with a letter.')).toBeVisible();
});
