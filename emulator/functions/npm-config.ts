// Deno fetches `npm:` imports itself. It is pointed at the registry npm is configured with (and
// npm's CA file and proxies), so a machine that reaches only its npm mirror serves functions too.
import { execFile } from 'node:child_process';

export interface NpmNetwork {
  registry: string | null;
  cafile: string | null;
  proxy: string | null;
  noproxy: string | null;
}

const KEYS = ['registry', 'cafile', 'https-proxy', 'proxy', 'noproxy'] as const;

/** `npm config get a b c` prints `a=value` lines; `null` and empty mean unset. */
export function parseNpmConfig(output: string): NpmNetwork {
  const values = new Map<string, string>();
  for (const line of output.split('\n')) {
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const value = line.slice(eq + 1).trim();
    if (value !== '' && value !== 'null' && value !== 'undefined')
      values.set(line.slice(0, eq).trim(), value);
  }
  return {
    registry: values.get('registry') ?? null,
    cafile: values.get('cafile') ?? null,
    proxy: values.get('https-proxy') ?? values.get('proxy') ?? null,
    noproxy: values.get('noproxy') ?? null,
  };
}

export function readNpmNetwork(cwd: string, log: (line: string) => void): Promise<NpmNetwork> {
  return new Promise((resolve) => {
    execFile(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      ['config', 'get', ...KEYS],
      { cwd, timeout: 15_000 },
      (error, stdout) => {
        // Without npm Deno keeps its own defaults (registry.npmjs.org, its own CA list).
        if (error)
          log(
            `functions: \`npm config get\` failed (${error.message.split('\n')[0]}); Deno uses its defaults`,
          );
        resolve(parseNpmConfig(error ? '' : stdout));
      },
    );
  });
}

/**
 * The same settings for Deno: the registry as a variable (read once at start, so the function's code
 * need not see it), the CA file as a flag (Deno reads DENO_CERT only when it first downloads, after
 * the bootstrap has emptied the environment), and proxies as variables the function keeps, since its
 * own fetch() goes through them too.
 */
export function denoNetwork(npm: NpmNetwork): { env: Record<string, string>; flags: string[] } {
  const env: Record<string, string> = {};
  if (npm.registry) env.NPM_CONFIG_REGISTRY = npm.registry;
  if (npm.proxy) env.HTTPS_PROXY = npm.proxy;
  if (npm.noproxy) env.NO_PROXY = npm.noproxy;
  return { env, flags: npm.cafile ? [`--cert=${npm.cafile}`] : [] };
}
