import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from './env.server.ts';

const PRODUCTION = {
  NODE_ENV: 'production',
  SUPABASE_URL: 'https://abcd.supabase.co/',
  SUPABASE_ANON_KEY: 'anon-key-0123456789abcdef',
  SUPABASE_SERVICE_ROLE_KEY: 'service-key-0123456789abcdef',
  SESSION_SECRET: 'a-production-secret-of-32-characters-or-more',
};

function messageOf(env: Record<string, string | undefined>): string {
  try {
    readConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected readConfig to refuse');
}

describe('readConfig', () => {
  it('uses the local backend and its development keys when nothing is set in development', () => {
    const config = readConfig({});
    expect(config.mode).toBe('development');
    expect(config.supabaseUrl).toBe('http://127.0.0.1:54321');
    expect(config.supabaseAnonKey.startsWith('eyJ')).toBe(true);
    expect(config.trustProxy).toEqual({ kind: 'none' });
    expect(config.signInLimits).toEqual({ perVisitor: 30, perAccount: 10 });
    expect(config.sessionSecrets).toHaveLength(1);
  });

  it('uses the local backend and its keys in a production start with no backend settings (`npm start`)', () => {
    const config = readConfig({ NODE_ENV: 'production' });
    expect(config.mode).toBe('production');
    expect(config.localBackend).toBe(true);
    expect(config.supabaseUrl).toBe('http://127.0.0.1:54321');
    expect(config.supabaseAnonKey.startsWith('eyJ')).toBe(true);
    expect(config.serviceRoleKey?.startsWith('eyJ')).toBe(true);
    expect(config.serviceRoleKey).not.toBe(config.supabaseAnonKey);
    expect(config.sessionSecrets).toHaveLength(1);
  });

  it('finds the local backend on the port API_PORT names, as `npm run backend` does', () => {
    const config = readConfig({ NODE_ENV: 'production', API_PORT: '59321' });
    expect(config.supabaseUrl).toBe('http://127.0.0.1:59321');
    expect(config.localBackend).toBe(true);
    expect(messageOf({ API_PORT: '70000' })).toMatch(/^API_PORT must be a port number/);
  });

  it('takes a backend on this machine with the local keys as the local one, with or without a secret', () => {
    for (const url of ['http://localhost:59321', 'http://127.0.0.1:54321/', 'http://[::1]:54321']) {
      const config = readConfig({ NODE_ENV: 'production', SUPABASE_URL: url });
      expect(config.localBackend, url).toBe(true);
    }
    const withSecret = readConfig({ NODE_ENV: 'production', SESSION_SECRET: PRODUCTION.SESSION_SECRET });
    expect(withSecret.sessionSecrets).toEqual([PRODUCTION.SESSION_SECRET]);
  });

  it.each([
    ['a hosted address alone', { SUPABASE_URL: 'https://abcd.supabase.co' }],
    ['a key of a real project without its address', { SUPABASE_ANON_KEY: PRODUCTION.SUPABASE_ANON_KEY }],
    ['a service key of a real project', { SUPABASE_SERVICE_ROLE_KEY: PRODUCTION.SUPABASE_SERVICE_ROLE_KEY }],
    [
      'a backend on this machine with keys of its own (self-hosted)',
      { SUPABASE_URL: 'http://127.0.0.1:8000', SUPABASE_ANON_KEY: PRODUCTION.SUPABASE_ANON_KEY },
    ],
    ['a backend on another machine with the local keys', { SUPABASE_URL: 'http://10.0.0.5:54321' }],
  ])('is not the local backend with %s: a production start needs every setting', (_, env) => {
    const message = messageOf({ NODE_ENV: 'production', ...env });
    expect(message).toContain('SESSION_SECRET');
    expect(message).not.toContain('\n');
    expect(readConfig(env).localBackend).toBe(false);
  });

  it('reads a complete production environment', () => {
    const config = readConfig({ ...PRODUCTION, SITE_URL: 'https://crewboard.example/', TRUST_PROXY: 'true' });
    expect(config.supabaseUrl).toBe('https://abcd.supabase.co');
    expect(config.siteUrl).toBe('https://crewboard.example');
    expect(config.trustProxy).toEqual({ kind: 'nearest' });
    expect(config.sessionSecrets).toEqual([PRODUCTION.SESSION_SECRET]);
    expect(config.localBackend).toBe(false);
  });

  it('accepts several session secrets, the newest first, so one can be rotated', () => {
    const next = 'the-next-production-secret-of-32-characters';
    const config = readConfig({ ...PRODUCTION, SESSION_SECRET: `${next}, ${PRODUCTION.SESSION_SECRET}` });
    expect(config.sessionSecrets).toEqual([next, PRODUCTION.SESSION_SECRET]);
  });

  it.each(['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY', 'SESSION_SECRET'])(
    'refuses a production start without %s, naming it in one line',
    (name) => {
      const message = messageOf({ ...PRODUCTION, [name]: undefined });
      expect(message).toContain(name);
      expect(message).not.toContain('\n');
    },
  );

  it.each([
    ['SUPABASE_URL', 'not a url'],
    ['SUPABASE_URL', 'ftp://example.com'],
    ['SITE_URL', 'crewboard.example'],
    ['TRUST_PROXY', 'maybe'],
    ['TRUST_PROXY', '10.0.0.0/99'],
    ['RATE_LIMIT_SIGN_IN_PER_VISITOR', 'lots'],
    ['RATE_LIMIT_SIGN_IN_PER_ACCOUNT', '0'],
    ['NODE_ENV', 'staging'],
    ['SESSION_SECRET', 'too-short'],
  ])('names %s when it is malformed (%j)', (name, value) => {
    const message = messageOf({ ...PRODUCTION, [name]: value });
    expect(message.startsWith(`${name} `)).toBe(true);
    expect(message).toContain(JSON.stringify(value));
  });

  it('reads a list of trusted proxies', () => {
    expect(readConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16, ::1' }).trustProxy).toEqual({
      kind: 'list',
      proxies: ['10.0.0.1', '192.168.0.0/16', '::1'],
    });
  });
});
