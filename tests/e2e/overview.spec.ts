import { randomUUID } from 'node:crypto';
import {
  clearOfMidnight,
  createConfirmedUser,
  day,
  endpoints,
  expect,
  projectPath,
  signIn,
  taskPath,
  test,
  serviceRest,
} from './support.ts';

/** Rows made as the service role: setup for what the overview shows, not how it is made. */
async function serviceRole<T>(method: 'POST' | 'PATCH', path: string, body: unknown): Promise<T> {
  const { apiUrl, serviceRoleKey } = endpoints();
  const res = await fetch(`${apiUrl}/rest/v1/${path}`, {
    method,
    headers: {
      apikey: serviceRoleKey,
      Authorization: `Bearer ${serviceRoleKey}`,
      'content-type': 'application/json',
      Prefer: 'return=representation',
    },
    body: JSON.stringify(body),
  });
  expect(res.status, `${path}: ${await res.clone().text()}`).toBeLessThan(300);
  return (await res.json()) as T;
}

test('the overview shows each project’s progress, my open tasks by due date, and the activity by day', async ({
  page,
}) => {
  await clearOfMidnight();
  const me = await createConfirmedUser('overview');
  const mate = await createConfirmedUser('overview-mate');
  await serviceRole('PATCH', `profiles?id=eq.${me.id}`, { display_name: 'Ada Lovelace' });
  await serviceRole('PATCH', `profiles?id=eq.${mate.id}`, { display_name: 'Grace Hopper' });
  const slug = `overview-${randomUUID().slice(0, 8)}`;
  const [workspace] = await serviceRole<Array<{ id: string }>>('POST', 'workspaces', {
    name: 'Northwind',
    slug,
    created_by: me.id,
  });
  const ws = workspace?.id ?? '';
  await serviceRole('POST', 'workspace_members', [
    { workspace_id: ws, user_id: me.id, role: 'owner' },
    { workspace_id: ws, user_id: mate.id, role: 'member' },
  ]);
  const [website] = await serviceRole<Array<{ id: string }>>('POST', 'projects', [
    { workspace_id: ws, name: 'Website' },
    { workspace_id: ws, name: 'Mobile app' },
  ]);
  // The project's columns, by name.
  const statuses = await serviceRest<Array<{ id: string; name: string }>>(
    'GET',
    `project_statuses?select=id,name&project_id=eq.${website?.id}`,
  );
  const column: Record<string, string | undefined> = {
    backlog: statuses.find((s) => s.name === 'Backlog')?.id,
    todo: statuses.find((s) => s.name === 'To do')?.id,
    in_progress: statuses.find((s) => s.name === 'In progress')?.id,
    done: statuses.find((s) => s.name === 'Done')?.id,
  };
  const task = (title: string, status: string, extra: Record<string, unknown> = {}) => ({
    workspace_id: ws,
    project_id: website?.id,
    title,
    status_id: column[status],
    assignee_id: null,
    due_date: null,
    ...extra,
  });
  await serviceRole('POST', 'tasks', [
    task('Pick a font', 'backlog'),
    task('Draft the sitemap', 'backlog'),
    task('Write the pricing page', 'todo', { assignee_id: me.id, due_date: day(-1) }),
    task('Fix the footer', 'todo', { assignee_id: mate.id, due_date: day(-2) }),
    task('Add a favicon', 'todo', { assignee_id: me.id }),
    task('Ship the new homepage', 'in_progress', { assignee_id: me.id, due_date: day(3) }),
    task('Buy the domain', 'done', { assignee_id: me.id, due_date: day(-5) }),
    task('Set up hosting', 'done'),
    task('Choose colours', 'done'),
    task('Logo', 'done'),
  ]);
  // Older activity, as the triggers would have recorded it when Grace worked yesterday.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();
  await serviceRole('POST', 'activity', [
    {
      workspace_id: ws,
      project_id: website?.id,
      actor_id: mate.id,
      kind: 'task_moved',
      data: { number: 8, title: 'Set up hosting', from: 'In progress', to: 'Done' },
      created_at: yesterday,
    },
  ]);

  await signIn(page, me.email, me.password);
  await page.goto(`/w/${slug}`);
  await expect(page.getByRole('heading', { name: 'Northwind', level: 1 })).toBeVisible();

  // Each project: a bar of its tasks by status, said in words too, and its open and overdue counts.
  const projects = page.getByRole('region', { name: 'Projects' });
  const websiteCard = projects.getByRole('link', { name: /Website/ });
  await expect(
    websiteCard.getByRole('img', { name: '2 backlog, 3 to do, 1 in progress, 4 done' }),
  ).toBeVisible();
  await expect(websiteCard).toContainText('6 open');
  await expect(websiteCard).toContainText('2 overdue');
  const mobileCard = projects.getByRole('link', { name: /Mobile app/ });
  await expect(mobileCard.getByRole('img', { name: 'No tasks yet' })).toBeAttached();
  await expect(mobileCard).toContainText('0 open');
  await expect(mobileCard).toHaveAttribute('href', projectPath(slug, 'MOB'));

  // My tasks: open ones assigned to me, soonest due first, undated last; done and others' left out.
  const mine = page.getByRole('region', { name: /My tasks/ });
  await expect(mine.getByRole('listitem')).toHaveText([
    /Write the pricing page.*1 day overdue/,
    /Ship the new homepage.*in 3 days/,
    /Add a favicon/,
  ]);
  await expect(mine.getByText('1 day overdue')).toHaveAttribute('datetime', day(-1));

  // Activity: faces, what happened, how long ago, one group per day.
  const activity = page.getByRole('region', { name: 'Activity' });
  const today = activity.getByRole('region', { name: 'Today' });
  // The ten tasks made at once read as one line, each still there to open.
  const made = today.getByRole('listitem').filter({ hasText: 'Someone created 10 tasks in Website' });
  await expect(made).toContainText(/just now|minute/);
  await expect(made.getByRole('link', { name: 'WEB-1 Pick a font', includeHidden: true })).toHaveAttribute(
    'href',
    taskPath(slug, 'WEB', 1),
  );
  const older = activity.getByRole('region', { name: 'Yesterday' });
  await expect(older.getByRole('listitem')).toHaveText([
    /Grace Hopper moved WEB-8 Set up hosting to Done.*1 day ago/,
  ]);
  const when = older.locator('time');
  await expect(when).toHaveAttribute('datetime', new RegExp(`^${yesterday.slice(0, 16)}`));
  await expect(when).toHaveAttribute('title', /\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/);
  await expect(older.getByText('GH')).toBeVisible();

  // A task in my list opens on its board.
  await mine.getByRole('link', { name: 'Write the pricing page' }).click();
  await expect(page).toHaveURL(new RegExp(`${taskPath(slug, 'WEB', 3)}$`));
});

test('a new account’s workspace says what to do first, and its one button does it', async ({
  page,
  signedIn: _signedIn,
}) => {
  await page.getByRole('link', { name: /Personal/ }).click();
  await expect(page.getByRole('heading', { name: 'Start with your first project' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('button')).toHaveText(['Create project']);

  await page.getByLabel('Project name').fill('Garden');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('heading', { name: 'Garden' })).toBeVisible();

  await page.getByRole('link', { name: 'Overview' }).click();
  await expect(
    page.getByRole('link', { name: /Garden/ }).getByRole('img', { name: 'No tasks yet' }),
  ).toBeAttached();
  await expect(page.getByRole('region', { name: /My tasks/ })).toContainText('Nothing on your plate');
  await expect(page.getByRole('region', { name: 'Activity' })).toContainText(/created the project Garden/);
});
