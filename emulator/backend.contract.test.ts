// The backend as a whole: data survives a restart, and two backends never share a data directory.
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startBackend, type Backend } from './backend.ts';
import { SetupProblem } from './lib/problem.ts';

const projectRoot = path.resolve(import.meta.dirname, '..');
// Under /tmp, not /root: as root, PostgreSQL runs as the `postgres` user, who must reach the directory.
const dataDir = mkdtempSync(path.join(tmpdir(), 'crewboard-lifecycle-'));
chmodSync(dataDir, 0o755);
const started: Backend[] = [];

async function start(): Promise<Backend> {
  const backend = await startBackend({
    projectRoot,
    dataDir,
    fallbackToFreePorts: true,
    apiPort: 0,
    dbPort: 0,
    mailPort: 0,
  });
  started.push(backend);
  return backend;
}

async function admin(backend: Backend, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${backend.apiUrl}/auth/v1${path}`, {
    ...init,
    headers: {
      apikey: backend.serviceRoleKey,
      Authorization: `Bearer ${backend.serviceRoleKey}`,
      'content-type': 'application/json',
    },
  });
}

afterAll(async () => {
  for (const b of started) await b.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('local backend lifecycle', () => {
  it.runIf(process.getuid?.() === 0)('explains a data directory the database user cannot enter', async () => {
    const hidden = mkdtempSync(path.join(tmpdir(), 'crewboard-private-'));
    try {
      await expect(
        startBackend({ projectRoot, dataDir: hidden, apiPort: 0, dbPort: 0, mailPort: 0 }),
      ).rejects.toThrow(/database user "postgres" cannot write/);
    } finally {
      rmSync(hidden, { recursive: true, force: true });
    }
  });

  it('keeps users across a restart, and refuses a second backend on the same data directory', async () => {
    const first = await start();
    const created = await admin(first, '/admin/users', {
      method: 'POST',
      body: JSON.stringify({
        email: 'survivor@example.test',
        password: 'a-good-password',
        email_confirm: true,
      }),
    });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };

    await expect(start()).rejects.toThrow(SetupProblem);
    await expect(start()).rejects.toThrow(/already|Another/);

    await first.stop();
    const second = await start();
    const found = await admin(second, `/admin/users/${id}`);
    expect(found.status).toBe(200);
    expect(((await found.json()) as { email: string }).email).toBe('survivor@example.test');
    expect(second.seeded).toBe(false);
  }, 60_000);
});

describe('migrations and seed', () => {
  it('applies migrations with the Supabase CLI, seeds a fresh database once, and picks up new migrations', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'crewboard-project-'));
    chmodSync(root, 0o755);
    const dir = path.join(root, '.data');
    try {
      mkdirSync(path.join(root, 'supabase', 'migrations'), { recursive: true });
      copyFileSync(
        path.join(projectRoot, 'supabase', 'config.toml'),
        path.join(root, 'supabase', 'config.toml'),
      );
      cpSync(path.join(projectRoot, 'supabase', 'templates'), path.join(root, 'supabase', 'templates'), {
        recursive: true,
      });
      writeFileSync(
        path.join(root, 'supabase', 'migrations', '20260101000000_create_notes.sql'),
        'create table public.notes (id int primary key, body text not null);\n',
      );
      writeFileSync(
        path.join(root, 'supabase', 'seed.sql'),
        "insert into public.notes values (1, 'seeded');\n",
      );
      const count = async (url: string, sql: string) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          return (await client.query<{ n: string }>(sql)).rows[0]?.n;
        } finally {
          await client.end();
        }
      };

      const first = await startBackend({
        projectRoot: root,
        dataDir: dir,
        apiPort: 0,
        dbPort: 0,
        mailPort: 0,
      });
      expect(first.seeded).toBe(true);
      expect(await count(first.dbUrl, 'select count(*) as n from public.notes')).toBe('1');
      expect(
        await count(first.dbUrl, 'select count(*) as n from supabase_migrations.schema_migrations'),
      ).toBe('1');
      await first.stop();

      writeFileSync(
        path.join(root, 'supabase', 'migrations', '20260102000000_add_done.sql'),
        'alter table public.notes add column done boolean not null default false;\n',
      );
      const second = await startBackend({
        projectRoot: root,
        dataDir: dir,
        apiPort: 0,
        dbPort: 0,
        mailPort: 0,
      });
      try {
        expect(second.seeded).toBe(false);
        expect(await count(second.dbUrl, 'select count(*) as n from public.notes where not done')).toBe('1');
        expect(
          await count(second.dbUrl, 'select count(*) as n from supabase_migrations.schema_migrations'),
        ).toBe('2');
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
