// Flat config: TypeScript-aware rules for the app, the emulator and the tests.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'build/', 'public/build/', '.data/', '.cache/', 'test-results/', 'playwright-report/', 'app/types/database.ts',
      // Deno code: `deno lint` and `deno check` read it (npm test).
      'supabase/functions/', 'emulator/functions/runtime/'] },
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
);
