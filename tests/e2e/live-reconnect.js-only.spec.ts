import { endpoints, expect, projectPath, test } from './support.ts';

test('a board that lost its connection catches up when it comes back', async ({
  page,
  context,
  signedIn: _signedIn,
}) => {
  const slug = `offline-${Date.now().toString(36)}`;
  await page.getByLabel('Workspace name').fill('Offline');
  await page.getByLabel('Address').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByLabel('Project name').fill('Trip');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('heading', { name: 'Trip' })).toBeVisible();
  await expect(page).toHaveURL(projectPath(slug, 'TRI'));
  await page.evaluate(() => Object.assign(window, { marker: true }));
  await expect(page.locator('header[data-live]')).toHaveAttribute('data-live', 'live');
  // Remix asks for the routes of the page's links (the project's settings among them) after they
  // render: let that finish first, as it would long before anyone's network went away.
  await page.waitForLoadState('networkidle');

  await context.setOffline(true);
  // While this browser is offline, a task is added behind its back (here by the service role).
  const { apiUrl, serviceRoleKey } = endpoints();
  const headers = { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` };
  const project = await fetch(
    `${apiUrl}/rest/v1/projects?select=id,workspace_id,workspaces!inner(slug)&workspaces.slug=eq.${slug}&key=eq.TRI`,
    { headers },
  );
  const [made] = (await project.json()) as Array<{ id: string; workspace_id: string }>;
  const workspaceId = made?.workspace_id;
  const projectId = made?.id;
  const created = await fetch(`${apiUrl}/rest/v1/tasks`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      workspace_id: workspaceId,
      project_id: projectId,
      title: 'Added while offline',
    }),
  });
  expect(created.status).toBe(201);
  await page.waitForTimeout(1_000);
  await expect(page.getByRole('link', { name: /Added while offline/ })).toHaveCount(0);

  await context.setOffline(false);
  await expect(page.getByRole('link', { name: /Added while offline/ })).toBeVisible({ timeout: 15_000 });
  expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
});
