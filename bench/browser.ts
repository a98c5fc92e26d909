// What the benchmarks in real browsers share: the e2e tests' Chromium with their flags
// (playwright.config.ts), pages instrumented to stamp their hydration, key presses and DOM changes,
// and the two measures taken from them.
//
// - Time to interactive: from navigation start to React's hydration of the page (root.tsx marks
//   <html data-hydrated>), each load a fresh page, the pages' loads alternating.
// - Key to DOM: from the key's event to the first moment the DOM (the focus included) shows what the
//   key does.
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { signInCookie } from './app.ts';
import { CHROMIUM_ARGS, systemChromium } from '../tests/e2e/chromium.ts';

export interface Percentiles {
  p50: number;
  p95: number;
  samples: number;
  /** Changes (or watchers) it never reached within 15 s. */
  missing: number;
}

export function percentiles(values: number[]): Percentiles {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;
  return { p50: at(0.5), p95: at(0.95), samples: sorted.length, missing: values.length - sorted.length };
}

export const median = (values: number[]) => percentiles(values).p50;

/** The e2e tests' Chromium, with their flags. */
export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: systemChromium, args: CHROMIUM_ARGS });
}

/**
 * What every page records for the bench: when it hydrated, the last key press or form submit (the
 * start of a change), and `until(test)`, the time the DOM first passes `test` (on any change to the
 * DOM or to the focus).
 */
function instrument() {
  const bench = {
    hydratedAt: NaN,
    keyAt: NaN,
    startedAt: NaN,
    arrival: Promise.resolve(NaN),
    until(test: () => boolean): Promise<number> {
      return new Promise((resolve) => {
        if (test()) return resolve(performance.timeOrigin + performance.now());
        const check = () => {
          if (!test()) return;
          observer.disconnect();
          document.removeEventListener('focusin', check, true);
          resolve(performance.timeOrigin + performance.now());
        };
        // A move of the focus changes no node: it is heard as it happens.
        const observer = new MutationObserver(check);
        observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
        document.addEventListener('focusin', check, true);
      });
    },
  };
  Object.assign(window, { bench });
  // Init scripts run before the document has an element: watch the document for <html>'s mark.
  new MutationObserver((_, observer) => {
    if (!document.documentElement?.dataset.hydrated) return;
    bench.hydratedAt = performance.now();
    observer.disconnect();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-hydrated'] });
  document.addEventListener(
    'keydown',
    (event) => {
      bench.keyAt = event.timeStamp;
      bench.startedAt = performance.timeOrigin + event.timeStamp;
    },
    true,
  );
  document.addEventListener(
    'submit',
    () => (bench.startedAt = performance.timeOrigin + performance.now()),
    true,
  );
}

/**
 * tsx (esbuild, keeping names) wraps named functions in `__name(…)`: functions sent to the page
 * find it there too.
 */
const KEEP_NAMES = 'globalThis.__name = (target) => target;';

/** A context whose pages run the bench's instruments. */
export async function instrumented(context: BrowserContext): Promise<BrowserContext> {
  await context.addInitScript({ content: KEEP_NAMES });
  await context.addInitScript(instrument);
  return context;
}

export interface Bench {
  hydratedAt: number;
  keyAt: number;
  startedAt: number;
  arrival: Promise<number>;
  until(test: () => boolean): Promise<number>;
}

/** An instrumented context signed in as `email` (the bench's users' password). */
export async function signedInContext(
  browser: Browser,
  appUrl: string,
  email: string,
): Promise<BrowserContext> {
  const cookie = await signInCookie(appUrl, email, 'bench-password-1');
  const context = await browser.newContext();
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: appUrl };
    }),
  );
  return instrumented(context);
}

/** One load of `url` in a fresh page of `context`: milliseconds from navigation start to hydration. */
async function timeToInteractive(context: BrowserContext, url: string): Promise<number> {
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached', timeout: 60_000 });
  const at = await page.evaluate(() => (window as unknown as { bench: Bench }).bench.hydratedAt);
  await page.close();
  return at;
}

/**
 * Time to interactive of each page (each in its context: a signed-in one, or an anonymous one for
 * /login), loads alternating, `loads` of each after a first round that warms the app and the
 * browser's cache: the median of each, in the order given.
 */
export async function timesToInteractive(
  pages: Array<{ context: BrowserContext; url: string }>,
  loads: number,
): Promise<number[]> {
  const times = pages.map((): number[] => []);
  for (let i = 0; i < loads + 1; i++) {
    for (const [at, { context, url }] of pages.entries()) {
      const ms = await timeToInteractive(context, url);
      if (i > 0) times[at]?.push(ms);
    }
  }
  return times.map(median);
}

/**
 * Presses `key` in `page`, whose `bench.arrival` waits for what the key does: milliseconds from the
 * key's event to the DOM showing it, or NaN when it did not within 15 s.
 */
export async function keyToDom(page: Page, key: string): Promise<number> {
  await page.keyboard.press(key);
  return page.evaluate(async () => {
    const bench = (window as unknown as { bench: Bench }).bench;
    const timeout = new Promise<number>((resolve) => setTimeout(() => resolve(NaN), 15_000));
    return (await Promise.race([bench.arrival, timeout])) - performance.timeOrigin - bench.keyAt;
  });
}
