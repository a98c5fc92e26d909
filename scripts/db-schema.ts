// `npm run db:schema`: writes supabase/schema, the database as supabase/migrations leave it, one
// file per table and per group of functions (scripts/schema/dump.ts). It applies the migrations to
// a PostgreSQL of its own in a temporary directory, so neither the development database nor
// anything made in it by hand finds its way in. With DATABASE_URL (a superuser of a server the
// local backend has prepared), it makes its database there instead.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres } from '../emulator/db/postgres.ts';
import { freePort } from '../emulator/lib/net.ts';
import { schemaOfMigrations, writeSchema } from './schema/migrated.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(projectRoot, 'supabase', 'schema');

async function main(): Promise<void> {
  const started = Date.now();
  let files;
  if (process.env.DATABASE_URL) {
    files = await schemaOfMigrations(process.env.DATABASE_URL, projectRoot);
  } else {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'crewboard-schema-'));
    // The database may run as an OS user of its own, which must be able to enter the directory.
    chmodSync(dataDir, 0o755);
    try {
      const db = await startPostgres({ dataDir, port: await freePort() });
      try {
        files = await schemaOfMigrations(db.url, projectRoot);
      } finally {
        await db.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  writeSchema(out, files);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`Wrote ${files.size} files to ${path.relative(projectRoot, out)}/ in ${seconds} s.`);
}

main().catch((error: unknown) => {
  console.error(`✖ ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
