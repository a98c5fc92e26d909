// The e2e stack: a backend of its own (.data/e2e) and the production build of the app, served by
// remix-serve on E2E_PORT. Playwright starts it (playwright.config.ts) and stops it with SIGTERM.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startBackend } from '../../emulator/backend.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const appPort = Number(process.env.E2E_PORT ?? 3200);
const appUrl = `http://localhost:${appPort}`;
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

const app = spawn(
  process.execPath,
  [path.join(projectRoot, 'node_modules', '@remix-run', 'serve', 'dist', 'cli.js'), 'build/index.js'],
  {
    cwd: projectRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(appPort),
      SUPABASE_URL: backend.apiUrl,
      SUPABASE_ANON_KEY: backend.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey,
      SITE_URL: appUrl,
      // Every browser of the suite is one visitor (127.0.0.1) signing in far more than a person;
      // the app's limits are tested in tests/integration/sign-in-limits.test.ts.
      RATE_LIMIT_SIGN_IN_PER_VISITOR: '1000000',
      RATE_LIMIT_SIGN_IN_PER_ACCOUNT: '1000000',
    },
    stdio: 'inherit',
  },
);

const stop = async () => {
  app.kill('SIGTERM');
  await backend.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
app.on('exit', (code) => {
  void backend.stop().then(() => process.exit(code ?? 1));
});
