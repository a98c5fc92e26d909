// The demo accounts of supabase/seed.sql must sign in on a hosted project too. GoTrue scans these
// auth.users columns into Go strings, ints, bools and times (supabase/auth internal/models/user.go),
// so a NULL in any of them fails every sign-in there ("Database error querying schema") even though
// the local auth server would let the user in.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetDatabase, startBackend, type Backend } from '../backend.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const DEMO_USERS = ['ada@demo.crewboard.test', 'grace@demo.crewboard.test', 'linus@demo.crewboard.test'];
const NOT_NULL_FOR_GOTRUE = [
  'instance_id',
  'aud',
  'role',
  'confirmation_token',
  'recovery_token',
  'email_change_token_current',
  'email_change_token_new',
  'email_change',
  'email_change_confirm_status',
  'phone_change',
  'phone_change_token',
  'reauthentication_token',
  'created_at',
  'updated_at',
  'is_sso_user',
  'is_anonymous',
];

let dataDir: string;
let backend: Backend;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'crewboard-seed-'));
  chmodSync(dataDir, 0o755);
  // What `npm run db:reset` does: drop the database, then start, which migrates and seeds afresh.
  await resetDatabase(dataDir);
  backend = await startBackend({ projectRoot, dataDir, apiPort: 0, dbPort: 0, mailPort: 0, smtpPort: 0 });
}, 120_000);

afterAll(async () => {
  await backend?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the demo users after db:reset', () => {
  it('were seeded', () => {
    expect(backend.seeded).toBe(true);
  });

  it.each(DEMO_USERS)('%s has every column GoTrue reads set', async (email) => {
    const client = new pg.Client({ connectionString: backend.dbUrl });
    await client.connect();
    try {
      const { rows } = await client.query<Record<string, unknown>>(
        `select ${NOT_NULL_FOR_GOTRUE.join(', ')} from auth.users where email = $1`,
        [email],
      );
      expect(rows).toHaveLength(1);
      const nulls = NOT_NULL_FOR_GOTRUE.filter((column) => rows[0]?.[column] === null);
      expect(nulls).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it.each(DEMO_USERS)('%s signs in with the documented password', async (email) => {
    const supabase = createClient(backend.apiUrl, backend.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const { data, error } = await supabase.auth.signInWithPassword({ email, password: 'crewboard-demo' });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
  });
});
