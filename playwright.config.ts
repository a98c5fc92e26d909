import { defineConfig } from '@playwright/test';
import { freePort } from './emulator/lib/net.ts';
import { CHROMIUM_ARGS, systemChromium } from './tests/e2e/chromium.ts';

// A port of this run's own unless E2E_PORT names one: a server already listening elsewhere (another
// checkout's, a dev server) is never mistaken for this run's. Workers and the web server inherit it.
const portGiven = Boolean(process.env.E2E_PORT && process.env.E2E_LIMITS_PORT);
if (!process.env.E2E_PORT) process.env.E2E_PORT = String(await freePort());
const port = Number(process.env.E2E_PORT);
// The same app with low sign-in limits, for tests/e2e/limits (tests/e2e/server.ts starts both).
if (!process.env.E2E_LIMITS_PORT) process.env.E2E_LIMITS_PORT = String(await freePort());
const limitsPort = Number(process.env.E2E_LIMITS_PORT);
// Specs under tests/e2e/limits run against that app only; everything else against the first.
const LIMITS = /[\\/]limits[\\/][^\\/]+\.spec\.ts$/;

export default defineConfig({
  testDir: 'tests/e2e',
  // Each run's traces and screenshots beside its own data directory, so two runs never clean up each other's.
  outputDir: `test-results/${(process.env.E2E_DATA_DIR ?? 'e2e').replace(/[^\w.-]+/g, '_')}`,
  // One worker: two cores also run the backend and the app.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: systemChromium,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    { name: 'js', testIgnore: LIMITS, use: { browserName: 'chromium', javaScriptEnabled: true } },
    {
      name: 'no-js',
      // Behaviour that only exists with JavaScript (live updates across tabs) is tested in js only.
      testIgnore: [/\.js-only\.spec\.ts$/, LIMITS],
      use: { browserName: 'chromium', javaScriptEnabled: false },
    },
    {
      name: 'limits-js',
      testMatch: LIMITS,
      use: { browserName: 'chromium', javaScriptEnabled: true, baseURL: `http://localhost:${limitsPort}` },
    },
    {
      name: 'limits-no-js',
      testMatch: LIMITS,
      use: { browserName: 'chromium', javaScriptEnabled: false, baseURL: `http://localhost:${limitsPort}` },
    },
  ],
  webServer: {
    command: 'npx tsx tests/e2e/server.ts',
    // The low-limits app, which the server starts once the first one answers: both are up.
    url: `http://localhost:${limitsPort}/healthz`,
    // Only a server someone started on purpose on E2E_PORT and E2E_LIMITS_PORT
    // (`npx tsx tests/e2e/server.ts`), never in CI.
    reuseExistingServer: portGiven && !process.env.CI,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
