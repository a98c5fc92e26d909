import type { Locator, Page } from '@playwright/test';
import {
  addMember,
  boardOfTasks,
  createConfirmedUser,
  expect,
  hydrated,
  serviceRest,
  signInAs,
  test,
} from './support.ts';

const withJavaScript = () => test.info().project.use.javaScriptEnabled !== false;

/** The chips of the labels on a task, in its panel. */
const chipsOf = (panel: Locator) =>
  panel.getByRole('region', { name: 'Labels' }).getByRole('list', { name: 'Labels', exact: true });

/**
 * Puts `name` on the task of the open panel as a person does: with JavaScript through the picker
 * (found by typing part of its name), without it by ticking its box and saving.
 */
async function putLabelOn(page: Page, panel: Locator, name: string) {
  if (withJavaScript()) {
    await hydrated(page);
    await panel.getByRole('button', { name: 'Edit labels' }).click();
    await panel.getByLabel('Find a label').fill(name.slice(0, 3).toLowerCase());
    await panel.getByRole('checkbox', { name }).check();
    await page.keyboard.press('Escape');
    await expect(panel.getByRole('button', { name: 'Edit labels' })).toBeFocused();
  } else {
    await panel.getByRole('checkbox', { name }).check();
    await panel.getByRole('button', { name: 'Save labels' }).click();
  }
  await expect(chipsOf(panel).getByText(name, { exact: true })).toBeVisible();
}

test('an admin makes a label, renames and recolours it, puts it on two tasks, filters the board by it; a viewer sees it and changes nothing', async ({
  page,
}) => {
  const { boardPath, workspaceId } = await boardOfTasks(3);
  const slug = boardPath.split('/')[2] ?? '';
  const key = boardPath.split('/')[4] ?? '';
  const [admin, viewer] = [
    await createConfirmedUser('labels-admin'),
    await createConfirmedUser('labels-viewer'),
  ];
  await addMember(slug, admin.id, 'admin');
  await addMember(slug, viewer.id, 'viewer');

  await signInAs(page, admin);
  await page.goto(`/w/${slug}`);
  await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Labels' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Labels' })).toBeVisible();
  await hydrated(page);

  // A name is needed, and one in use (in any letter case) is refused by the field, as typed.
  await page.getByRole('button', { name: 'Create label' }).click();
  await expect(page.getByText('Enter a label name.')).toBeVisible();
  await page.getByLabel('Label name').fill('Bug');
  await page.getByLabel('Colour', { exact: true }).selectOption('red');
  await page.getByRole('button', { name: 'Create label' }).click();
  const labels = page.getByRole('list', { name: 'Labels' });
  await expect(labels.getByText('Bug', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Label name')).toHaveValue('');
  await page.getByLabel('Label name').fill('BUG');
  await page.getByRole('button', { name: 'Create label' }).click();
  await expect(page.getByText('A label with this name already exists. Choose another.')).toBeVisible();
  await expect(page.getByLabel('Label name')).toHaveValue('BUG');
  await expect(page.getByLabel('Label name')).toHaveAttribute('aria-invalid', 'true');

  // Renamed and recoloured in one go.
  const edit = page.getByRole('form', { name: 'Edit Bug' });
  await edit.getByLabel('Name of Bug').fill('Defect');
  await edit.getByLabel('Colour of Bug').selectOption('green');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(labels.getByText('Defect', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Colour of Defect')).toHaveValue('green');
  await expect(labels.getByText('Bug', { exact: true })).toHaveCount(0);
  const [label] = await serviceRest<Array<{ id: string; color: string }>>(
    'GET',
    `labels?select=id,color&workspace_id=eq.${workspaceId}&name=eq.Defect`,
  );
  expect(label?.color).toBe('green');

  // On two tasks, from each one's panel.
  for (const number of [1, 2]) {
    await page.goto(`${boardPath}/t/${number}`);
    const panel = page.getByRole('complementary', { name: `Task ${key}-${number}` });
    await expect(chipsOf(panel)).toHaveCount(0);
    await putLabelOn(page, panel, 'Defect');
    // What the server kept, on a fresh load.
    await page.goto(page.url());
    await expect(chipsOf(panel).getByText('Defect', { exact: true })).toBeVisible();
  }
  const onTasks = await serviceRest<unknown[]>('GET', `task_labels?select=task_id&label_id=eq.${label?.id}`);
  expect(onTasks).toHaveLength(2);

  // On the board: the two cards show the chip, and the filter form narrows the board to them.
  await page.goto(boardPath);
  const card = (number: number) =>
    page.locator('li[data-task-id]').filter({
      has: page.getByRole('link', { name: new RegExp(`^${key}-${number} Task ${number}$`, 'i') }),
    });
  for (const number of [1, 2])
    await expect(
      card(number).getByRole('list', { name: 'Labels' }).getByText('Defect', { exact: true }),
    ).toBeVisible();
  await expect(card(3).getByRole('list', { name: 'Labels' })).toHaveCount(0);
  const titles = page.locator('li[data-task-id] > a');
  await expect(titles).toHaveCount(3);
  const filters = page.getByRole('search', { name: 'Filter tasks' });
  if (withJavaScript()) await hydrated(page);
  await filters.locator('summary').click();
  await filters.getByRole('checkbox', { name: 'Defect' }).check();
  // With JavaScript a change applies by itself; without, the form is sent.
  if (!withJavaScript()) await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/[?&]label=Defect(&|$)/);
  await expect(titles).toHaveText([1, 2].map((n) => new RegExp(`^${key}-${n} Task ${n}$`, 'i')));
  // A new page (no JavaScript) draws the disclosure closed, saying how many are ticked.
  await expect(filters.locator('summary')).toHaveText('Labels (1)');
  await expect(filters.locator('input[name="label"][value="Defect"]')).toBeChecked();
  // The address alone, in any letter case; and cleared.
  await page.goto(`${boardPath}?label=defect`);
  await expect(titles).toHaveCount(2);
  await page.getByRole('link', { name: 'Clear filters' }).click();
  await expect(titles).toHaveCount(3);

  // The viewer reads the label on the page and on the task, with nothing to change it by.
  await page.context().clearCookies();
  await signInAs(page, viewer);
  await page.goto(`/w/${slug}/labels`);
  await expect(page.getByRole('list', { name: 'Labels' }).getByText('Defect', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create label' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Save|Delete)/ })).toHaveCount(0);
  await expect(page.getByRole('textbox')).toHaveCount(0);
  await page.goto(`${boardPath}/t/1`);
  const panel = page.getByRole('complementary', { name: `Task ${key}-1` });
  await hydrated(page);
  await expect(chipsOf(panel).getByText('Defect', { exact: true })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Edit labels' })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Save labels' })).toHaveCount(0);
  await expect(panel.getByRole('checkbox')).toHaveCount(0);
});
