// The e2e stack: a backend of its own (.data/e2e) and the production build of the app, served by
// remix-serve on E2E_PORT, and again with low sign-in limits on E2E_LIMITS_PORT when that is set.
// Playwright starts it (playwright.config.ts) and stops it with SIGTERM.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startBackend } from '../../emulator/backend.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const appPort = Number(process.env.E2E_PORT ?? 3200);
const appUrl = `http://localhost:${appPort}`;
const limitsPort = Number(process.env.E2E_LIMITS_PORT ?? 0);
// E2E_DATA_DIR lets two e2e runs (two checkouts, or two people) share a machine.
const dataDir = path.resolve(projectRoot, process.env.E2E_DATA_DIR ?? '.data/e2e');

const backend = await startBackend({
  projectRoot,
  dataDir,
  apiPort: 54521,
  dbPort: 54522,
  mailPort: 54524,
  smtpPort: 54525,
  fallbackToFreePorts: true,
  env: {
    AUTH_SITE_URL: appUrl,
    // Every browser reaches the backend through the one app server, so per-IP limits would be
    // shared by all tests; the limits themselves are covered by the emulator's contract tests.
    AUTH_RATE_LIMIT_EMAIL_SENT: '1000000',
    AUTH_RATE_LIMIT_SIGN_IN: '1000000',
    AUTH_RATE_LIMIT_VERIFY: '1000000',
    AUTH_RATE_LIMIT_TOKEN_REFRESH: '1000000',
    AUTH_RATE_LIMIT_MFA: '1000000',
    AUTH_JWT_EXPIRY: process.env.E2E_JWT_EXPIRY,
    // Notification email, shortened: the schedule runs every 2 s, and one person may get an email
    // every 5 s.
    NOTIFICATION_SCHEDULE_SECONDS: '2',
    NOTIFICATION_EMAIL_INTERVAL_SECONDS: '5',
  },
});
writeFileSync(
  path.join(dataDir, 'endpoints.json'),
  JSON.stringify({
    appUrl,
    apiUrl: backend.apiUrl,
    mailUrl: backend.mailUrl,
    serviceRoleKey: backend.serviceRoleKey,
  }),
);

/** The production build on `port`, against the backend, with the sign-in limits given. */
function startApp(port: number, limits: { perVisitor: string; perAccount: string }) {
  return spawn(
    process.execPath,
    [path.join(projectRoot, 'node_modules', '@remix-run', 'serve', 'dist', 'cli.js'), 'build/index.js'],
    {
      cwd: projectRoot,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        SUPABASE_URL: backend.apiUrl,
        SUPABASE_ANON_KEY: backend.anonKey,
        SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey,
        SESSION_SECRET: 'crewboard-test-session-secret-of-32-characters',
        SITE_URL: appUrl,
        RATE_LIMIT_SIGN_IN_PER_VISITOR: limits.perVisitor,
        RATE_LIMIT_SIGN_IN_PER_ACCOUNT: limits.perAccount,
      },
      stdio: 'inherit',
    },
  );
}

const healthy = (url: string) =>
  fetch(url).then(
    (r) => r.ok,
    () => false,
  );

async function answers(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await healthy(url))) {
    if (Date.now() > deadline) throw new Error(`${url} did not answer within 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// Every browser of the suite is one visitor (127.0.0.1) signing in far more than a person; the
// app's limits are tested in tests/http/sign-in-limits.test.ts, and in the browser against
// the second app below.
const app = startApp(appPort, { perVisitor: '1000000', perAccount: '1000000' });
// The same build with the limits low (tests/e2e/limits): three attempts per account in five minutes.
// Each of those tests uses accounts of its own, so the one visitor they all are is not limited.
// Playwright waits for this one (playwright.config.ts), started once the first answers.
const apps = [app];
if (limitsPort) {
  await answers(`${appUrl}/healthz`);
  apps.push(startApp(limitsPort, { perVisitor: '1000000', perAccount: '3' }));
}

const stop = async () => {
  for (const child of apps) child.kill('SIGTERM');
  await backend.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
for (const child of apps)
  child.on('exit', (code) => {
    for (const other of apps) if (other !== child) other.kill('SIGTERM');
    void backend.stop().then(() => process.exit(code ?? 1));
  });
