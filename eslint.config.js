// Flat config: TypeScript-aware rules for the app, the emulator and the tests.
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// The walls between the parts (ARCHITECTURE.md, STYLE.md): the app never reaches into the local
// backend, no backend service reaches into another's folder (what they share is in emulator/lib/),
// and no server-only module is imported by code that the browser bundle also holds. Tests span
// parts, so they are left out.
const SERVICES = ['auth', 'db', 'functions', 'gateway', 'mail', 'realtime', 'rest', 'storage'];
const BACKEND_ENTRY_POINTS = ['backend.ts', 'main.ts', 'local-env.ts'];
const TESTS = ['**/*.test.ts', '**/*.test.tsx'];

const noEmulator = {
  regex: '(^|/)emulator(/|$)',
  message: 'The app talks to the backend through supabase-js and its URL only; it never imports emulator/.',
};
const noServerModule = {
  regex: '\\.server(\\.tsx?)?$',
  message:
    'Server-only modules must not reach the browser bundle; import them from a route or another *.server.ts.',
};

const walls = [
  {
    files: ['app/**/*.ts', 'app/**/*.tsx'],
    ignores: TESTS,
    rules: { 'no-restricted-imports': ['error', { patterns: [noEmulator] }] },
  },
  {
    // What the browser bundle holds: components, the client entry, and the shared (non-server) utils.
    files: ['app/components/**/*.{ts,tsx}', 'app/entry.client.tsx', 'app/utils/*.{ts,tsx}'],
    ignores: [...TESTS, 'app/**/*.server.ts', 'app/**/*.server.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noEmulator, noServerModule] }] },
  },
  ...SERVICES.map((service) => ({
    files: [`emulator/${service}/**/*.ts`],
    ignores: TESTS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^\\.\\./(${SERVICES.filter((other) => other !== service).join('|')})/`,
              message: `emulator/${service} must not import another service; share code through emulator/lib/.`,
            },
            {
              regex: `^\\.\\./(${BACKEND_ENTRY_POINTS.map((name) => name.replace('.', '\\.')).join('|')})$`,
              message: 'A service is started by backend.ts, never the other way round.',
            },
            { regex: '(^|/)app/', message: 'The local backend does not import the app.' },
          ],
        },
      ],
    },
  })),
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'build/',
      'public/build/',
      '.data/',
      '.cache/',
      'test-results/',
      'playwright-report/',
      'app/types/database.ts',
      // Deno code: `deno lint` and `deno check` read it (npm test).
      'supabase/functions/',
      'emulator/functions/runtime/',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // The two rules of hooks React documents (react.dev, "Rules of Hooks"): called in the same order
    // on every render, and every value an effect or callback reads listed in its dependencies. The
    // plugin's React Compiler rules are left out: the app does not use the compiler.
    files: ['app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  ...walls,
  {
    // Every spec takes `test` from tests/e2e/support.ts, whose fixture fails a test on what the
    // browser reports (uncaught errors, CSP violations, console errors).
    files: ['tests/e2e/**/*.ts'],
    ignores: ['tests/e2e/support.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test'],
              message: "Import `test` from './support.ts': its fixture fails on browser errors.",
            },
          ],
        },
      ],
    },
  },
);
