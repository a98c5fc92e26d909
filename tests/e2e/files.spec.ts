import type { Page } from '@playwright/test';
import {
  createConfirmedUser,
  endpoints,
  expect,
  expectFlashOnce,
  flash,
  signIn,
  test,
  openNewTask,
} from './support.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

async function service(path: string, init: RequestInit = {}) {
  const { apiUrl, serviceRoleKey } = endpoints();
  return fetch(`${apiUrl}${path}`, {
    ...init,
    headers: {
      apikey: serviceRoleKey,
      Authorization: `Bearer ${serviceRoleKey}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });
}

/** Names stored under a folder of a bucket, as the service role sees them. */
async function storedUnder(bucket: string, prefix: string): Promise<string[]> {
  const res = await service(`/storage/v1/object/list/${bucket}`, {
    method: 'POST',
    body: JSON.stringify({ prefix, limit: 100, offset: 0 }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as Array<{ name: string }>).map((o) => o.name);
}

test('upload and remove a picture on the account page; its bytes decide its type', async ({
  page,
  signedIn,
}) => {
  const { id } = signedIn;
  await page.goto('/account');
  const input = page.getByLabel('New picture');
  const upload = page.getByRole('button', { name: 'Upload picture' });

  await upload.click();
  await expect(page.getByText('Choose a file first.')).toBeVisible();
  await input.setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<svg>not a png</svg>'),
  });
  await upload.click();
  await expect(page.getByText("That file type isn't allowed here.")).toBeVisible();
  await input.setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]),
  });
  await upload.click();
  await expect(page.getByText('Files can be at most 2 MB.')).toBeVisible();

  // A real PNG under a misleading name and type is still stored as a PNG.
  await input.setInputFiles({ name: 'photo.txt', mimeType: 'text/plain', buffer: PNG });
  await upload.click();
  await expectFlashOnce(page, 'Your picture was updated.');
  // The uploaded picture in place of the initials (app/components/avatar.tsx).
  const picture = page.getByRole('main').locator('img.avatar');
  await expect(picture).toBeVisible();
  const src = (await picture.getAttribute('src')) ?? '';
  const served = await fetch(src);
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toBe('image/png');
  expect(await storedUnder('avatars', id)).toHaveLength(1);

  // A second picture replaces the first, whose file is deleted.
  await input.setInputFiles({ name: 'again.png', mimeType: 'image/png', buffer: PNG });
  await upload.click();
  await expect(flash(page, 'Your picture was updated.')).toBeVisible();
  await expect.poll(() => storedUnder('avatars', id)).toHaveLength(1);

  await page.getByRole('button', { name: 'Remove picture' }).click();
  await expectFlashOnce(page, 'Your picture was removed.');
  await expect(page.getByRole('main').locator('img.avatar')).toHaveCount(0);
  expect(await storedUnder('avatars', id)).toHaveLength(0);
});

async function taskPanel(page: Page) {
  const { email, password } = await createConfirmedUser('files');
  await signIn(page, email, password);
  const slug = `files-${Date.now().toString(36)}`;
  await page.getByLabel('Workspace name').fill('Files');
  await page.getByLabel('Address').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByLabel('Project name').fill('Docs');
  await page.getByRole('button', { name: 'Create project' }).click();
  const todo = page.getByRole('region', { name: 'To do' });
  await openNewTask(todo);
  await todo.getByLabel('Title').fill('Collect the contracts');
  await todo.getByRole('button', { name: 'Create task' }).click();
  await todo.getByRole('link', { name: /Collect the contracts/ }).click();
  const panel = page.getByRole('complementary', { name: 'Task DOC-1' });
  await expect(panel).toBeVisible();
  const workspaces = await service(`/rest/v1/workspaces?select=id&slug=eq.${slug}`);
  const workspaceId = ((await workspaces.json()) as Array<{ id: string }>)[0]?.id ?? '';
  const tasks = await service(`/rest/v1/tasks?select=id&workspace_id=eq.${workspaceId}`);
  const taskId = ((await tasks.json()) as Array<{ id: string }>)[0]?.id ?? '';
  expect(taskId).not.toBe('');
  return { panel, slug, folder: `${workspaceId}/${taskId}` };
}

test('attach files to a task, preview images, download through a signed link, delete; the files stay with a task in the trash', async ({
  page,
}) => {
  const { panel, folder } = await taskPanel(page);
  const input = panel.getByLabel('Attach a file');
  const upload = panel.getByRole('button', { name: 'Upload file' });

  await input.setInputFiles({
    name: 'too-big.bin',
    mimeType: 'application/octet-stream',
    buffer: Buffer.alloc(10 * 1024 * 1024 + 1),
  });
  await upload.click();
  await expect(panel.getByText('Files can be at most 10 MB.')).toBeVisible();

  await input.setInputFiles({
    name: 'contract.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Signed by both parties.\n'),
  });
  await upload.click();
  await expect(panel.getByRole('link', { name: 'contract.txt', exact: true })).toBeVisible();
  await expect(panel.getByText(/24 B · files-/)).toBeVisible();

  await input.setInputFiles({ name: 'scan.png', mimeType: 'image/png', buffer: PNG });
  await upload.click();
  const preview = panel.getByRole('img', { name: 'scan.png' });
  await expect(preview).toBeVisible();
  expect(await preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);

  // The link is the app's: it checks access, then hands out a short-lived signed download.
  const downloading = page.waitForEvent('download');
  await panel.getByRole('link', { name: 'contract.txt', exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('contract.txt');
  const path = await download.path();
  const { readFileSync } = await import('node:fs');
  expect(readFileSync(path, 'utf8')).toBe('Signed by both parties.\n');

  expect(await storedUnder('attachments', folder)).toHaveLength(2);
  await panel.getByRole('link', { name: 'Delete contract.txt' }).click();
  await page.getByRole('button', { name: 'Delete file' }).click();
  await expect(panel.getByRole('link', { name: 'contract.txt', exact: true })).toHaveCount(0);
  await expect.poll(() => storedUnder('attachments', folder)).toHaveLength(1);

  // Deleting the task moves it to the trash: its remaining file stays until the trash is purged
  // (tests/e2e/trash.spec.ts).
  await panel.getByRole('link', { name: 'Delete task' }).click();
  await page.getByRole('button', { name: 'Delete task' }).click();
  await expect(panel).toHaveCount(0);
  expect(await storedUnder('attachments', folder)).toHaveLength(1);
});

test('a signed-in outsider cannot download another workspace’s attachment', async ({ page, browser }) => {
  const { panel, slug } = await taskPanel(page);
  await panel.getByLabel('Attach a file').setInputFiles({
    name: 'secret.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('top secret'),
  });
  await panel.getByRole('button', { name: 'Upload file' }).click();
  const href =
    (await panel.getByRole('link', { name: 'secret.txt', exact: true }).getAttribute('href')) ?? '';
  expect(href).toMatch(new RegExp(`^/w/${slug}/files/`));

  const outsider = await createConfirmedUser('outsider');
  const other = await (await browser.newContext()).newPage();
  await signIn(other, outsider.email, outsider.password);
  const response = await other.request.get(href, { maxRedirects: 0 });
  expect(response.status()).toBe(404);
  // Not even with the ID in the address of a workspace they belong to: their own personal one, which
  // opens for them, so the 404 is about the file.
  const found = await service(
    `/rest/v1/workspaces?select=slug&is_personal=is.true&created_by=eq.${outsider.id}`,
  );
  const [own] = (await found.json()) as Array<{ slug: string }>;
  expect(own?.slug).toBeTruthy();
  const ownSlug = own?.slug ?? '';
  expect(ownSlug).not.toBe(slug);
  expect((await other.request.get(`/w/${ownSlug}`, { maxRedirects: 0 })).status()).toBe(200);
  const elsewhere = await other.request.get(href.replace(`/w/${slug}/`, `/w/${ownSlug}/`), {
    maxRedirects: 0,
  });
  expect(elsewhere.status()).toBe(404);
});
