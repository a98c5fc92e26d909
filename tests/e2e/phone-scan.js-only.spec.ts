// At 390 × 844, the board scanned for what the accessibility scan lets pass (it keeps the serious and
// critical violations only): every part of the page in a landmark (`region`, of moderate impact), and
// the column counts readable, in light and dark mode.
import AxeBuilder from '@axe-core/playwright';
import { boardOfTasks, expect, hydrated, signInAs, test } from './support.ts';

test.use({ viewport: { width: 390, height: 844 } });

test('on a phone the top bar is a landmark and the column counts read in both schemes', async ({ page }) => {
  const { owner, boardPath } = await boardOfTasks(3);
  await signInAs(page, owner);
  await page.goto(boardPath);
  await hydrated(page);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Crewboard' })).toBeVisible();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page }).withRules(['region', 'color-contrast']).analyze();
    expect(
      violations.map((v) => `${colorScheme} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`),
    ).toEqual([]);
  }
});
