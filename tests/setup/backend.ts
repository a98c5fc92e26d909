// Vitest global setup for contract and integration tests: a private backend on its own data
// directory (.data/test) and ports, so tests never touch development data and run beside `npm run dev`.
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startBackend } from '../../emulator/backend.ts';

export interface ProvidedBackend {
  apiUrl: string;
  dbUrl: string;
  mailUrl: string;
  /** PostgREST itself, without the gateway (for tests that put gateways of their own in front). */
  postgrestUrl: string;
  anonKey: string;
  serviceRoleKey: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    backend: ProvidedBackend;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const projectRoot = path.resolve(import.meta.dirname, '../..');
  const backend = await startBackend({
    projectRoot,
    // TEST_DATA_DIR lets two checkouts or two people's test runs share a machine.
    dataDir: path.resolve(projectRoot, process.env.TEST_DATA_DIR ?? '.data/test'),
    apiPort: 54421,
    dbPort: 54422,
    mailPort: 54424,
    smtpPort: 54425,
    fallbackToFreePorts: true,
    // Tests send far more mail than a person; per-client limits stay as configured (tests use their own IPs).
    env: {
      AUTH_RATE_LIMIT_EMAIL_SENT: '1000000',
      // Tests name their client in X-Forwarded-For; GoTrue limits per client only with this set.
      AUTH_RATE_LIMIT_HEADER: 'X-Forwarded-For',
      // The contract tests check the limits at GoTrue's own defaults; config.toml sets them high
      // because the app limits sign-ins per visitor itself (its tests start their own backend).
      AUTH_RATE_LIMIT_SIGN_IN: '30',
      AUTH_RATE_LIMIT_VERIFY: '30',
      AUTH_RATE_LIMIT_TOKEN_REFRESH: '150',
      // No notification email on a schedule: tests that count a person's mail get only what they
      // asked for. tests/faults/notification-email.test.ts calls send-notifications itself.
      NOTIFICATION_SCHEDULE_SECONDS: '0',
    },
  });
  project.provide('backend', {
    apiUrl: backend.apiUrl,
    dbUrl: backend.dbUrl,
    mailUrl: backend.mailUrl,
    postgrestUrl: backend.postgrestUrl,
    anonKey: backend.anonKey,
    serviceRoleKey: backend.serviceRoleKey,
  });
  return () => backend.stop();
}
