import { defineConfig } from 'vitest/config';

// Two projects: `unit` needs nothing running (`npm run test:unit`); `contract` drives the unmodified
// supabase-js and the app against a local backend that tests/setup/backend.ts starts on its own data
// directory and ports. Its files: the emulator's own contract tests beside each service, and every
// test file under tests/ by kind (tests/rls, tests/http, tests/sql, tests/faults; README says which
// is which), so a new folder there is run without editing this.
export default defineConfig({
  test: {
    // Contract tests share one backend and two cores; running files one at a time keeps them predictable.
    fileParallelism: false,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['emulator/**/*.unit.test.ts', 'app/**/*.test.ts', 'tests/setup/*.test.ts'],
          setupFiles: ['tests/setup/fail-on-console-error.ts'],
        },
      },
      {
        test: {
          name: 'contract',
          include: ['emulator/**/*.contract.test.ts', 'tests/**/*.test.ts'],
          exclude: ['tests/setup/**', 'tests/e2e/**', '**/node_modules/**'],
          globalSetup: ['tests/setup/backend.ts'],
          setupFiles: ['tests/setup/fail-on-console-error.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
