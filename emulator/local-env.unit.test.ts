import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requirePortFree } from './lib/net.ts';
import { SetupProblem } from './lib/problem.ts';
import { backendOptionsFromEnv, portFromEnv, readEnvironment } from './local-env.ts';

const root = '/srv/crewboard';

describe('backendOptionsFromEnv', () => {
  it('leaves every port to supabase/config.toml and uses .data/dev when nothing is set', () => {
    const options = backendOptionsFromEnv(root, {});
    expect(options).toMatchObject({
      projectRoot: root,
      dataDir: '/srv/crewboard/.data/dev',
      databaseUrl: undefined,
      portsFromEnvironment: [],
    });
    expect(options.apiPort).toBeUndefined();
    expect(options.dbPort).toBeUndefined();
    expect(options.mailPort).toBeUndefined();
    expect(options.smtpPort).toBeUndefined();
  });

  it('reads the four ports, the data directory and DATABASE_URL, and remembers which ports were set', () => {
    const options = backendOptionsFromEnv(root, {
      API_PORT: '59321',
      DB_PORT: '59322',
      MAIL_PORT: ' 59324 ',
      SMTP_PORT: '59325',
      CREWBOARD_DATA_DIR: '.data/second',
      DATABASE_URL: 'postgresql://postgres:postgres@127.0.0.1:5432/postgres',
    });
    expect(options).toMatchObject({
      apiPort: 59321,
      dbPort: 59322,
      mailPort: 59324,
      smtpPort: 59325,
      dataDir: '/srv/crewboard/.data/second',
      databaseUrl: 'postgresql://postgres:postgres@127.0.0.1:5432/postgres',
    });
    expect(options.portsFromEnvironment).toEqual(['apiPort', 'dbPort', 'mailPort', 'smtpPort']);
  });

  it('treats an empty variable as unset, and keeps an absolute data directory as it is', () => {
    const options = backendOptionsFromEnv(root, {
      API_PORT: '',
      MAIL_PORT: '59324',
      CREWBOARD_DATA_DIR: '/var/tmp/crewboard',
      DATABASE_URL: '',
    });
    expect(options.apiPort).toBeUndefined();
    expect(options.mailPort).toBe(59324);
    expect(options.portsFromEnvironment).toEqual(['mailPort']);
    expect(options.dataDir).toBe('/var/tmp/crewboard');
    expect(options.databaseUrl).toBeUndefined();
  });

  it.each(['abc', '70000', '0', '-1', '5432.5', '54321x', '0x10'])(
    'refuses API_PORT=%s with a fix that names the variable',
    (value) => {
      const read = () => backendOptionsFromEnv(root, { API_PORT: value });
      expect(read).toThrow(SetupProblem);
      expect(read).toThrow(`API_PORT is "${value}", which is not a port number.`);
      expect(read).toThrow(/Fix: set API_PORT to a free port from 1 to 65535/);
    },
  );

  it('names the variable that is wrong when several are set', () => {
    expect(() => backendOptionsFromEnv(root, { API_PORT: '59321', SMTP_PORT: 'smtp' })).toThrow(
      /^SMTP_PORT is "smtp"/,
    );
  });

  it('refuses a DATABASE_URL that is not a PostgreSQL URL without repeating it', () => {
    for (const value of ['127.0.0.1:5432', 'mysql://root:secret@db/app']) {
      const read = () => backendOptionsFromEnv(root, { DATABASE_URL: value });
      expect(read).toThrow(/DATABASE_URL is not a postgresql:\/\/ connection URL/);
      expect(read).not.toThrow(/secret/);
    }
    expect(backendOptionsFromEnv(root, { DATABASE_URL: 'postgres://u:p@h/db' }).databaseUrl).toBe(
      'postgres://u:p@h/db',
    );
  });
});

describe('portFromEnv', () => {
  it('reads the app port the same way', () => {
    expect(portFromEnv({ PORT: '3400' }, 'PORT')).toBe(3400);
    expect(portFromEnv({}, 'PORT')).toBeUndefined();
    expect(() => portFromEnv({ PORT: 'eighty' }, 'PORT')).toThrow(/^PORT is "eighty"/);
  });
});

describe('readEnvironment', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = '';
  });

  it('reads .env under the process environment, which wins as it does for remix dev', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'crewboard-env-'));
    writeFileSync(path.join(dir, '.env'), '# ports\nAPI_PORT=59321\nMAIL_PORT="59324"\n');
    const env = readEnvironment(dir, { MAIL_PORT: '60324' });
    expect(backendOptionsFromEnv(dir, env)).toMatchObject({ apiPort: 59321, mailPort: 60324 });
  });

  it('is the process environment alone without a .env file', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'crewboard-env-'));
    expect(readEnvironment(dir, { DB_PORT: '59322' })).toEqual({ DB_PORT: '59322' });
  });
});

describe('a port in use', () => {
  const servers: net.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  async function occupiedPort(): Promise<number> {
    const server = net.createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (typeof address !== 'object' || !address) throw new Error('no address');
    return address.port;
  }

  it('names the variable that moves a default port', async () => {
    const port = await occupiedPort();
    const check = requirePortFree(port, 'mailbox', 'MAIL_PORT');
    await expect(check).rejects.toThrow(SetupProblem);
    await expect(requirePortFree(port, 'mailbox', 'MAIL_PORT')).rejects.toThrow(
      `Port ${port} (mailbox) is already in use.\n  Fix: set MAIL_PORT to a free port, or stop what listens on it`,
    );
  });

  it('says the taken value came from the variable when it was set', async () => {
    const port = await occupiedPort();
    await expect(requirePortFree(port, 'mailbox SMTP', 'SMTP_PORT', true)).rejects.toThrow(
      `Port ${port} (mailbox SMTP), from SMTP_PORT, is already in use.\n  Fix: set SMTP_PORT to another free port`,
    );
  });

  it('passes a free port', async () => {
    const port = await occupiedPort();
    await new Promise((resolve) => servers.splice(0)[0]?.close(resolve));
    await expect(requirePortFree(port, 'API gateway', 'API_PORT')).resolves.toBeUndefined();
  });
});
