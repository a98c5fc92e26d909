import { defineConfig } from 'vitest/config';

// Two projects: `unit` needs nothing running; `contract` drives the unmodified supabase-js
// against a local backend that tests/setup/backend.ts starts on its own data directory and ports.
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
          include: ['emulator/**/*.contract.test.ts', 'tests/integration/**/*.test.ts'],
          globalSetup: ['tests/setup/backend.ts'],
          setupFiles: ['tests/setup/fail-on-console-error.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
