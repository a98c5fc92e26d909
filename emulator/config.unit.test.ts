import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAIL_FROM, loadSettings, parseDuration, parseMailFrom } from './config.ts';

describe('parseDuration', () => {
  it('reads the Go durations the CLI writes, and plain seconds', () => {
    expect(parseDuration('60s', 0)).toBe(60);
    expect(parseDuration('1m0s', 0)).toBe(60);
    expect(parseDuration('1h30m', 0)).toBe(5400);
    expect(parseDuration(42, 0)).toBe(42);
    expect(parseDuration(undefined, 7)).toBe(7);
  });

  it('refuses what it cannot read instead of guessing', () => {
    expect(() => parseDuration('soon', 0)).toThrow(/cannot read the duration/);
  });
});

describe('loadSettings', () => {
  it('reads the project config with the CLI keys', () => {
    const settings = loadSettings(path.resolve(import.meta.dirname, '..'), {});
    expect(settings.apiPort).toBe(54321);
    expect(settings.mailPort).toBe(54324);
    expect(settings.auth.email.enableConfirmations).toBe(true);
    expect(settings.auth.email.otpExpiry).toBe(600);
    expect(settings.auth.email.maxFrequency).toBe(60);
    expect(settings.auth.refreshTokenReuseInterval).toBe(10);
    expect(settings.auth.email.templates.magic_link?.contentPath).toMatch(
      /supabase\/templates\/magic_link\.html$/,
    );
  });

  it('falls back to the CLI defaults without a config file, and lets the environment shorten limits', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'crewboard-config-'));
    mkdirSync(path.join(root, 'supabase'));
    writeFileSync(path.join(root, 'supabase', 'config.toml'), '[inbucket]\nport = 1234\n');
    const settings = loadSettings(root, { AUTH_JWT_EXPIRY: '5', AUTH_RATE_LIMIT_SIGN_IN: '3' });
    expect(settings.mailPort).toBe(1234);
    expect(settings.auth.jwtExpiry).toBe(5);
    expect(settings.auth.rateLimit.signInSignUps).toBe(3);
    // No per-address request limit unless a header names the client, as in the CLI's stack.
    expect(settings.auth.rateLimit.header).toBe('');
    expect(loadSettings(root, { AUTH_RATE_LIMIT_HEADER: 'X-Forwarded-For' }).auth.rateLimit.header).toBe(
      'X-Forwarded-For',
    );
    expect(settings.auth.email.enableConfirmations).toBe(false);
    expect(settings.schemas).toEqual(['public', 'graphql_public']);
  });

  it("reads [auth.mfa] with the CLI's defaults: TOTP off unless the project turns it on", () => {
    const root = mkdtempSync(path.join(tmpdir(), 'crewboard-config-'));
    mkdirSync(path.join(root, 'supabase'));
    writeFileSync(path.join(root, 'supabase', 'config.toml'), '');
    const defaults = loadSettings(root, { AUTH_RATE_LIMIT_MFA: '4' }).auth.mfa;
    expect(defaults).toEqual({
      maxEnrolledFactors: 10,
      totpEnrollEnabled: false,
      totpVerifyEnabled: false,
      challengeExpiry: 300,
      rateLimit: 4,
    });
    const project = loadSettings(path.resolve(import.meta.dirname, '..'), {}).auth.mfa;
    expect(project).toMatchObject({ totpEnrollEnabled: true, totpVerifyEnabled: true, rateLimit: 15 });
  });

  it('takes the one sender of all mail from MAIL_FROM, for auth and the functions alike', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const defaults = loadSettings(root, {});
    expect(defaults.mailFrom).toBe(DEFAULT_MAIL_FROM);
    expect(defaults.auth.email.from).toEqual({ Name: 'Crewboard', Address: 'no-reply@crewboard.test' });
    const set = loadSettings(root, { MAIL_FROM: '"Crew, Board" <team@example.com>' });
    expect(set.mailFrom).toBe('"Crew, Board" <team@example.com>');
    expect(set.auth.email.from).toEqual({ Name: 'Crew, Board', Address: 'team@example.com' });
    expect(loadSettings(root, { MAIL_FROM: 'bare@example.com' }).auth.email.from).toEqual({
      Name: '',
      Address: 'bare@example.com',
    });
  });

  it('refuses a MAIL_FROM that is not one address, naming the variable', () => {
    for (const value of ['Crewboard', 'a@example.com, b@example.com', 'Name <not an address>'])
      expect(() => parseMailFrom(value)).toThrow(/^MAIL_FROM is ".*", which is not one email address/);
  });
});
