// `supabase db advisors` (the Supabase CLI's security lints) finds nothing wrong with the migrations.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { supabaseCli } from '../../emulator/db/migrate.ts';
import { backend } from '../support/backend.ts';

describe('database advisors', () => {
  it('report no security issue', async () => {
    const projectRoot = path.resolve(import.meta.dirname, '../..');
    const args = [
      'db',
      'advisors',
      `--remote=${backend().dbUrl}`,
      '--type',
      'security',
      '--level',
      'info',
      '--fail-on',
      'info',
      '--workdir',
      projectRoot,
    ];
    // On a finding the CLI exits non-zero; its report is then what the failure shows.
    const { stdout, stderr } = await promisify(execFile)(supabaseCli(), args, {
      cwd: projectRoot,
      env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: '1' },
    }).catch((error: { stdout?: string; stderr?: string }) => ({
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? String(error),
    }));
    expect(`${stdout}\n${stderr}`).toContain('No issues found');
  }, 60_000);
});
