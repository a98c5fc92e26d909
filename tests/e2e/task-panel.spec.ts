import { endpoints, expect, projectPath, signIn, test, openNewTask } from './support.ts';

test('open a task over the board, edit every field, comment, and delete the comment', async ({
  page,
  signedIn,
}) => {
  const { id, email } = signedIn;
  await page.goto('/w');
  const slug = `panel-${Date.now().toString(36)}`;
  await page.getByLabel('Workspace name').fill('Panel test');
  await page.getByLabel('Address').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByLabel('Project name').fill('Board');
  await page.getByRole('button', { name: 'Create project' }).click();
  const todo = page.getByRole('region', { name: 'To do' });
  await openNewTask(todo);
  await todo.getByLabel('Title').fill('Plan the offsite');
  await todo.getByRole('button', { name: 'Create task' }).click();

  await todo.getByRole('link', { name: /Plan the offsite/ }).click();
  const panel = page.getByRole('complementary', { name: 'Task BOA-1' });
  await expect(panel).toBeVisible();
  // The board stays rendered behind the panel.
  await expect(page.getByRole('region', { name: 'Backlog' })).toBeVisible();

  // The task reads as a document; Edit opens the form.
  await expect(panel.getByRole('heading', { name: 'Plan the offsite' })).toBeVisible();
  await expect(panel.getByText('No description.')).toBeVisible();
  await panel.getByRole('link', { name: 'Edit', exact: true }).click();
  await panel.getByLabel('Title').fill('');
  await panel.getByRole('button', { name: 'Save task' }).click();
  await expect(panel.getByText('Enter a title.')).toBeVisible();
  await panel.getByLabel('Title').fill('Plan the team offsite');
  await panel.getByLabel('Description').fill('Two days in March.\nSomewhere with a lake.');
  await panel.getByLabel('Status').selectOption({ label: 'In progress' });
  await panel.getByLabel('Priority').selectOption('high');
  await panel.getByLabel('Assignee').selectOption({ label: email.split('@')[0] ?? '' });
  await panel.getByLabel('Due date').fill('2027-03-15');
  await panel.getByRole('button', { name: 'Save task' }).click();
  await expect(
    page.getByRole('region', { name: 'In progress' }).getByText(/Plan the team offsite/),
  ).toBeVisible();
  // Saved, the panel is the document again.
  await expect(panel.getByRole('heading', { name: 'Plan the team offsite' })).toBeVisible();
  await expect(panel.getByText('Two days in March. Somewhere with a lake.')).toBeVisible();
  await expect(panel.getByLabel('Title')).toHaveCount(0);
  // What the server kept, on a fresh GET of the form (a reload without JavaScript would post it again).
  await page.goto(`${page.url().replace(/\?.*$/, '')}?edit=task`);
  await expect(panel.getByLabel('Title')).toHaveValue('Plan the team offsite');
  await expect(panel.getByLabel('Description')).toHaveValue('Two days in March.\nSomewhere with a lake.');
  await expect(panel.getByLabel('Status').locator('option:checked')).toHaveText('In progress');
  await expect(panel.getByLabel('Priority')).toHaveValue('high');
  await expect(panel.getByLabel('Assignee')).toHaveValue(id);
  await expect(panel.getByLabel('Due date')).toHaveValue('2027-03-15');

  await panel.getByLabel('Comment', { exact: true }).fill('I can book the venue.');
  await panel.getByRole('button', { name: 'Add comment' }).click();
  await expect(panel.getByText('I can book the venue.')).toBeVisible();
  // Deleting asks first: a dialog with JavaScript, a page of its own without.
  await panel.getByRole('link', { name: 'Delete comment' }).click();
  await page.getByRole('button', { name: 'Delete comment' }).click();
  await expect(panel.getByText('I can book the venue.')).toHaveCount(0);

  await panel.getByRole('link', { name: 'Close' }).click();
  await expect(panel).toHaveCount(0);
});

test('a viewer sees the board with no edit controls, and a forged move is refused', async ({
  page,
  request,
}) => {
  await signIn(page, 'linus@demo.crewboard.test', 'crewboard-demo');
  await page.goto(projectPath('northwind', 'WEB'));
  const todo = page.getByRole('region', { name: 'To do' });
  await expect(todo.getByRole('link', { name: /Contact form with spam protection/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create task' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Move', exact: true })).toHaveCount(0);
  await todo.getByRole('link', { name: /Contact form with spam protection/ }).click();
  await expect(page.getByRole('button', { name: 'Save task' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Move', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Move WEB-\d+ (up|down)$/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add comment' })).toHaveCount(0);

  // A hand-made POST from the viewer's session, naming a real task, gets nowhere.
  const { apiUrl, serviceRoleKey } = endpoints();
  const lookup = await fetch(
    `${apiUrl}/rest/v1/tasks?select=id&project_id=eq.c0000000-0000-4000-8000-000000000001&number=eq.13`,
    {
      headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` },
    },
  );
  const taskId = ((await lookup.json()) as Array<{ id: string }>)[0]?.id ?? '';
  expect(taskId).not.toBe('');
  const cookies = await page.context().cookies();
  const origin = new URL(page.url()).origin;
  const forged = await request.post(`${origin}${projectPath('northwind', 'WEB')}`, {
    headers: { Origin: origin, Cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') },
    form: { taskId, status: 'done' },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(404);
});

test.afterAll(async () => {
  // The forged move above must have left the demo task where it was.
  const { apiUrl, serviceRoleKey } = endpoints();
  const res = await fetch(
    `${apiUrl}/rest/v1/tasks?select=status:project_statuses!tasks_status_fkey(name)&project_id=eq.c0000000-0000-4000-8000-000000000001&number=eq.13`,
    {
      headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` },
    },
  );
  expect(await res.json()).toEqual([{ status: { name: 'To do' } }]);
});
