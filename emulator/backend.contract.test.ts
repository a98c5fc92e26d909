// The backend as a whole: data survives a restart, and two backends never share a data directory.
import {
  chmodSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startBackend, type Backend } from './backend.ts';
import net from 'node:net';
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
    smtpPort: 0,
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
        startBackend({ projectRoot, dataDir: hidden, apiPort: 0, dbPort: 0, mailPort: 0, smtpPort: 0 }),
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
        // The revoke must survive restarts: bootstrap runs on every start, after this migration.
        'create table public.notes (id int primary key, body text not null);\nrevoke delete on public.notes from anon;\n',
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
        smtpPort: 0,
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
        smtpPort: 0,
      });
      try {
        expect(second.seeded).toBe(false);
        const anonDeletes = await count(
          second.dbUrl,
          "select count(*) as n from information_schema.role_table_grants where grantee = 'anon' and table_name = 'notes' and privilege_type = 'DELETE'",
        );
        expect(anonDeletes).toBe('0');
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

describe('misconfiguration', () => {
  it('names a port that is in use and how to fix it', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const dir = mkdtempSync(path.join(tmpdir(), 'crewboard-port-'));
    chmodSync(dir, 0o755);
    try {
      const attempt = startBackend({
        projectRoot,
        dataDir: dir,
        apiPort: port,
        dbPort: 0,
        mailPort: 0,
        smtpPort: 0,
      });
      await expect(attempt).rejects.toThrow(SetupProblem);
      await expect(
        startBackend({ projectRoot, dataDir: dir, apiPort: port, dbPort: 0, mailPort: 0, smtpPort: 0 }),
      ).rejects.toThrow(new RegExp(`Port ${port} \\(API gateway\\) is already in use`));
    } finally {
      blocker.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('explains an unreachable DATABASE_URL', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'crewboard-dburl-'));
    try {
      await expect(
        startBackend({
          projectRoot,
          dataDir: dir,
          apiPort: 0,
          mailPort: 0,
          smtpPort: 0,
          databaseUrl: 'postgresql://postgres:postgres@127.0.0.1:1/postgres',
        }),
      ).rejects.toThrow(/Cannot reach the database at DATABASE_URL \(127\.0\.0\.1:1\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs on the server DATABASE_URL names instead of its own', async () => {
    const ownerDir = mkdtempSync(path.join(tmpdir(), 'crewboard-owner-'));
    chmodSync(ownerDir, 0o755);
    const owner = await startBackend({
      projectRoot,
      dataDir: ownerDir,
      apiPort: 0,
      dbPort: 0,
      mailPort: 0,
      smtpPort: 0,
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'crewboard-external-'));
    try {
      const guest = await startBackend({
        projectRoot,
        dataDir: dir,
        apiPort: 0,
        mailPort: 0,
        smtpPort: 0,
        databaseUrl: owner.dbUrl,
      });
      try {
        expect(guest.dbUrl).toBe(owner.dbUrl);
        const created = await admin(guest, '/admin/users', {
          method: 'POST',
          body: JSON.stringify({
            email: 'shared-db@example.test',
            password: 'a-good-password',
            email_confirm: true,
          }),
        });
        const { id } = (await created.json()) as { id: string };
        expect((await admin(owner, `/admin/users/${id}`)).status).toBe(200);
      } finally {
        await guest.stop();
      }
    } finally {
      await owner.stop();
      rmSync(dir, { recursive: true, force: true });
      rmSync(ownerDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('settings from config.toml', () => {
  it('signs up straight into a session with confirmations off, and then answers user_already_exists', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'crewboard-autoconfirm-'));
    chmodSync(root, 0o755);
    try {
      mkdirSync(path.join(root, 'supabase'), { recursive: true });
      const config = readFileSync(path.join(projectRoot, 'supabase', 'config.toml'), 'utf8');
      writeFileSync(
        path.join(root, 'supabase', 'config.toml'),
        config.replace('enable_confirmations = true', 'enable_confirmations = false'),
      );
      cpSync(path.join(projectRoot, 'supabase', 'templates'), path.join(root, 'supabase', 'templates'), {
        recursive: true,
      });
      const backend = await startBackend({
        projectRoot: root,
        dataDir: path.join(root, '.data'),
        apiPort: 0,
        dbPort: 0,
        mailPort: 0,
        smtpPort: 0,
      });
      try {
        const signUp = () =>
          fetch(`${backend.apiUrl}/auth/v1/signup`, {
            method: 'POST',
            headers: {
              apikey: backend.anonKey,
              'content-type': 'application/json',
              'X-Supabase-Api-Version': '2024-01-01',
            },
            body: JSON.stringify({ email: 'instant@example.test', password: 'a-good-password' }),
          });
        const first = await signUp();
        expect(first.status).toBe(200);
        expect(((await first.json()) as { access_token?: string }).access_token).toBeTruthy();
        const second = await signUp();
        expect(second.status).toBe(422);
        expect(await second.json()).toEqual({
          code: 'user_already_exists',
          message: 'User already registered',
        });
      } finally {
        await backend.stop();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('demo data', () => {
  it('seeds a fresh database with demo people who can sign in, and a living board', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'crewboard-seed-'));
    chmodSync(dir, 0o755);
    const seeded = await startBackend({
      projectRoot,
      dataDir: dir,
      apiPort: 0,
      dbPort: 0,
      mailPort: 0,
      smtpPort: 0,
    });
    try {
      expect(seeded.seeded).toBe(true);
      const signIn = await fetch(`${seeded.apiUrl}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: seeded.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'grace@demo.crewboard.test', password: 'crewboard-demo' }),
      });
      expect(signIn.status).toBe(200);
      const { access_token } = (await signIn.json()) as { access_token: string };
      const tasks = await fetch(
        `${seeded.apiUrl}/rest/v1/tasks?select=id&project_id=eq.c0000000-0000-4000-8000-000000000001`,
        {
          headers: { apikey: seeded.anonKey, Authorization: `Bearer ${access_token}`, Prefer: 'count=exact' },
        },
      );
      expect(tasks.headers.get('content-range')).toMatch(/\/40$/);
      const activity = await fetch(
        `${seeded.apiUrl}/rest/v1/activity?select=kind&workspace_id=eq.b0000000-0000-4000-8000-000000000001`,
        {
          headers: { apikey: seeded.anonKey, Authorization: `Bearer ${access_token}` },
        },
      );
      const kinds = new Set(((await activity.json()) as Array<{ kind: string }>).map((a) => a.kind));
      expect([...kinds]).toEqual(
        expect.arrayContaining(['task_created', 'comment_added', 'member_joined', 'project_created']),
      );
    } finally {
      await seeded.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
