// The schema the migrations make, read from a database made for the purpose: a new, empty database
// on a server the local backend has prepared, given the platform's schemas (bootstrap) and then
// every migration, as `supabase db push` applies them. Nothing else has ever run in it, so the
// schema is exactly the migrations' (a development or test database also holds what tests and
// people created by hand).
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { applyMigrations, bootstrap } from '../../emulator/db/migrate.ts';
import { dumpSchema, type SchemaFiles } from './dump.ts';

/** `url` with another user, password or database. */
function withParts(url: string, parts: { user?: string; password?: string; database?: string }): string {
  const u = new URL(url);
  if (parts.user !== undefined) u.username = encodeURIComponent(parts.user);
  if (parts.password !== undefined) u.password = encodeURIComponent(parts.password);
  if (parts.database !== undefined) u.pathname = `/${parts.database}`;
  return u.toString();
}

/**
 * The files of the schema that supabase/migrations make. `superuserUrl` names a superuser of a
 * server (supabase_admin on the local backend's); the database made on it is dropped afterwards.
 */
export async function schemaOfMigrations(superuserUrl: string, projectRoot: string): Promise<SchemaFiles> {
  const database = `schema_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: superuserUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${database}`);
    try {
      const url = withParts(superuserUrl, { database });
      await bootstrap(url);
      // As the role migrations run as (not a superuser), as on a hosted project.
      const asPostgres = withParts(url, { user: 'postgres', password: 'postgres' });
      await applyMigrations(asPostgres, projectRoot);
      const db = new pg.Client({ connectionString: asPostgres });
      await db.connect();
      try {
        return await dumpSchema(db);
      } finally {
        await db.end();
      }
    } finally {
      await admin.query(`drop database if exists ${database} with (force)`);
    }
  } finally {
    await admin.end();
  }
}

/** Replaces what is in `dir` with `files`. */
export function writeSchema(dir: string, files: SchemaFiles): void {
  rmSync(dir, { recursive: true, force: true });
  for (const [relative, content] of files) {
    const target = path.join(dir, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

/** The .sql files under `dir`, by their path relative to it. */
export function readSchema(dir: string): SchemaFiles {
  const files: SchemaFiles = new Map();
  let entries: string[] = [];
  try {
    entries = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return files;
  }
  for (const relative of entries.filter((e) => e.endsWith('.sql')).sort())
    files.set(relative.split(path.sep).join('/'), readFileSync(path.join(dir, relative), 'utf8'));
  return files;
}
