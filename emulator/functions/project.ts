// Which functions a project has and how each is served, read the way the Supabase CLI reads them:
// every `supabase/functions/<slug>/index.ts` plus every `[functions.<slug>]` in config.toml
// (`internal/functions/deploy/deploy.go` GetFunctionSlugs, GetFunctionConfig), with the defaults and
// path rules of `pkg/config/config.go` (enabled and verify_jwt default to true; entrypoint and
// import_map are relative to supabase/; deno.json, deno.jsonc, then import_map.json beside the
// entrypoint, then supabase/functions/import_map.json). Secrets come from supabase/functions/.env
// (`internal/secrets/set/set.go` ListSecrets: names starting with SUPABASE_ are skipped).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';

/** `internal/utils/misc.go` FuncSlugPattern. */
export const FUNCTION_SLUG = /^[A-Za-z][A-Za-z0-9_-]*$/;

export interface FunctionConfig {
  name: string;
  enabled: boolean;
  verifyJwt: boolean;
  /** Absolute path of the entry module. */
  entrypoint: string;
  /** Absolute path of deno.json(c) or an import map, if the function has one. */
  importMap: string | null;
}

type Table = Record<string, unknown>;

function table(value: unknown): Table {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Table) : {};
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

export function functionsDir(projectRoot: string): string {
  return path.join(projectRoot, 'supabase', 'functions');
}

/** Every function of the project, served or not (`enabled = false` ones are listed as such). */
export function readFunctions(projectRoot: string): FunctionConfig[] {
  const supabaseDir = path.join(projectRoot, 'supabase');
  const dir = functionsDir(projectRoot);
  const configFile = path.join(supabaseDir, 'config.toml');
  const declared = existsSync(configFile)
    ? table(table(parse(readFileSync(configFile, 'utf8'))).functions)
    : {};

  const slugs = new Set<string>();
  if (existsSync(dir)) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (
        entry.isDirectory() &&
        FUNCTION_SLUG.test(entry.name) &&
        isFile(path.join(dir, entry.name, 'index.ts'))
      )
        slugs.add(entry.name);
    }
  }
  for (const slug of Object.keys(declared)) {
    if (!FUNCTION_SLUG.test(slug))
      throw new Error(`config.toml: [functions.${slug}] is not a valid function name`);
    slugs.add(slug);
  }

  const fallbackImportMap = path.join(dir, 'import_map.json');
  return [...slugs].sort().map((name) => {
    const own = table(declared[name]);
    const entrypoint =
      typeof own.entrypoint === 'string' && own.entrypoint !== ''
        ? path.resolve(supabaseDir, own.entrypoint)
        : path.join(dir, name, 'index.ts');
    let importMap: string | null = null;
    if (typeof own.import_map === 'string' && own.import_map !== '') {
      importMap = path.resolve(supabaseDir, own.import_map);
    } else {
      const beside = path.dirname(entrypoint);
      importMap =
        ['deno.json', 'deno.jsonc', 'import_map.json'].map((f) => path.join(beside, f)).find(isFile) ??
        (isFile(fallbackImportMap) ? fallbackImportMap : null);
    }
    return {
      name,
      enabled: typeof own.enabled === 'boolean' ? own.enabled : true,
      verifyJwt: typeof own.verify_jwt === 'boolean' ? own.verify_jwt : true,
      entrypoint,
      importMap,
    };
  });
}

/**
 * A dotenv file as the CLI's godotenv reads it: `NAME=value`, `export NAME=value`, `#` comments,
 * single quotes taken literally, double quotes with `\n` escapes, inline comments after unquoted values.
 */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*[=:]\s*(.*)$/.exec(line);
    if (!m) throw new Error(`cannot read the line "${line}"`);
    const name = m[1] ?? '';
    let value = m[2] ?? '';
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.lastIndexOf(quote) > 0) {
      value = value.slice(1, value.lastIndexOf(quote));
      if (quote === '"')
        value = value.replace(/\\([nr"\\])/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c));
    } else {
      value = value.replace(/\s+#.*$/, '').trim();
    }
    out[name] = value;
  }
  return out;
}

/** supabase/functions/.env without the names the platform reserves. */
export function readSecrets(
  projectRoot: string,
  log: (line: string) => void = () => undefined,
): Record<string, string> {
  const file = path.join(functionsDir(projectRoot), '.env');
  if (!existsSync(file)) return {};
  const parsed = parseEnvFile(readFileSync(file, 'utf8'));
  const secrets: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (name.startsWith('SUPABASE_')) {
      log(`functions: supabase/functions/.env: names cannot start with SUPABASE_, skipping ${name}`);
      continue;
    }
    secrets[name] = value;
  }
  return secrets;
}
