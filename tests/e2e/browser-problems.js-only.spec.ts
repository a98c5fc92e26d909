// The fixture every spec runs under (support.ts) fails a test on what the browser reports. Each test
// below makes the browser report one thing and is marked test.fail(): it passes only if the fixture
// failed it. (Needs JavaScript to make the page misbehave; the fixture itself runs in both projects.)
import { expect, test } from './support.ts';

test('an uncaught error in the page fails the test', async ({ page }) => {
  test.fail();
  await page.goto('/login');
  const thrown = page.waitForEvent('pageerror');
  await page.evaluate(() => setTimeout(() => void Promise.reject(new Error('thrown in the page'))));
  await thrown;
});

test('a Content-Security-Policy violation fails the test', async ({ page }) => {
  test.fail();
  await page.goto('/login');
  const reported = page.waitForEvent('console', (m) => /Content Security Policy/.test(m.text()));
  await page.evaluate(() => {
    new Image().src = 'https://elsewhere.example/pixel.png';
  });
  await reported;
});

test('a console error fails the test, in a context the test opened itself too', async ({ browser }) => {
  test.fail();
  const page = await (await browser.newContext()).newPage();
  await page.goto('/login');
  const logged = page.waitForEvent('console', (m) => m.type() === 'error');
  await page.evaluate(() => console.error('logged by the page'));
  await logged;
});

test('an image that fails to load fails the test (a 404 is fine only for a page or a data request)', async ({
  page,
}) => {
  test.fail();
  await page.goto('/login');
  const failed = page.waitForEvent('console', (m) => /Failed to load resource/.test(m.text()));
  await page.evaluate(() => {
    document.body.append(Object.assign(document.createElement('img'), { src: '/build/none.png' }));
  });
  await failed;
});

test.describe('what the app answers on purpose', () => {
  test.use({ allowedConsoleErrors: [/^expected by this test$/] });

  test('a 404 page and a console error the test allows pass', async ({ page }) => {
    const res = await page.goto('/no-such-page');
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
    const logged = page.waitForEvent('console', (m) => m.type() === 'error');
    await page.evaluate(() => console.error('expected by this test'));
    await logged;
  });
});
