import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { denoNetwork, parseNpmConfig } from './npm-config.ts';
import { parseEnvFile, readFunctions, readSecrets } from './project.ts';

const roots: string[] = [];
function project(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'functions-project-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    const full = path.join(root, 'supabase', file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return root;
}
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('readFunctions', () => {
  it('finds functions as the CLI does, with its defaults and path rules', () => {
    const root = project({
      'config.toml': `[functions.quiet]\nverify_jwt = false\n[functions.off]\nenabled = false\n[functions.elsewhere]\nentrypoint = "./code/main.ts"\nimport_map = "./maps/imports.json"\n`,
      'functions/plain/index.ts': '',
      'functions/plain/deno.json': '{}',
      'functions/quiet/index.ts': '',
      'functions/off/index.ts': '',
      'functions/legacy/index.ts': '',
      'functions/legacy/import_map.json': '{}',
      'functions/_shared/util.ts': '',
      'functions/1bad/index.ts': '',
    });
    const fns = readFunctions(root);
    const dir = path.join(root, 'supabase');
    expect(fns.map((f) => f.name)).toEqual(['elsewhere', 'legacy', 'off', 'plain', 'quiet']);
    const byName = Object.fromEntries(fns.map((f) => [f.name, f]));
    expect(byName.plain).toEqual({
      name: 'plain',
      enabled: true,
      verifyJwt: true,
      entrypoint: path.join(dir, 'functions/plain/index.ts'),
      importMap: path.join(dir, 'functions/plain/deno.json'),
    });
    expect(byName.quiet).toMatchObject({ verifyJwt: false, enabled: true, importMap: null });
    expect(byName.off).toMatchObject({ enabled: false, verifyJwt: true });
    expect(byName.legacy?.importMap).toBe(path.join(dir, 'functions/legacy/import_map.json'));
    expect(byName.elsewhere).toMatchObject({
      entrypoint: path.join(dir, 'code/main.ts'),
      importMap: path.join(dir, 'maps/imports.json'),
    });
  });

  it('refuses a [functions.*] name the CLI would refuse', () => {
    const root = project({ 'config.toml': '[functions."2fast"]\n' });
    expect(() => readFunctions(root)).toThrow(/not a valid function name/);
  });
});

describe('secrets', () => {
  it('reads dotenv lines as godotenv does', () => {
    expect(
      parseEnvFile(
        [
          '# comment',
          'A=1',
          'export B = two words ',
          'C="line\\nbreak"',
          "D='$literal # not a comment'",
          'E=value # a comment',
          '',
        ].join('\n'),
      ),
    ).toEqual({ A: '1', B: 'two words', C: 'line\nbreak', D: '$literal # not a comment', E: 'value' });
  });

  it('skips names starting with SUPABASE_, as `supabase secrets set` does', () => {
    const lines: string[] = [];
    const root = project({ 'functions/.env': 'SUPABASE_URL=x\nSMTP_URL=smtp://h\n' });
    expect(readSecrets(root, (l) => lines.push(l))).toEqual({ SMTP_URL: 'smtp://h' });
    expect(lines.join()).toMatch(/SUPABASE_URL/);
  });
});

describe('npm settings for Deno', () => {
  it('takes the registry, CA file and proxy from `npm config get`', () => {
    const npm = parseNpmConfig(
      'registry=https://npm.example/\ncafile=/etc/ca.pem\nhttps-proxy=null\nproxy=http://proxy:3128\nnoproxy=\n',
    );
    expect(npm).toEqual({
      registry: 'https://npm.example/',
      cafile: '/etc/ca.pem',
      proxy: 'http://proxy:3128',
      noproxy: null,
    });
    expect(denoNetwork(npm)).toEqual({
      env: { NPM_CONFIG_REGISTRY: 'https://npm.example/', HTTPS_PROXY: 'http://proxy:3128' },
      flags: ['--cert=/etc/ca.pem'],
    });
  });
});
