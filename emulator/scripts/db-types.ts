// `npm run db:types`: writes app/types/database.ts from the local database with the Supabase CLI.
// Uses the running development backend when there is one; otherwise starts it for the moment.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBackend } from '../backend.ts';
import { runSupabaseCli } from '../db/migrate.ts';
import { SetupProblem } from '../lib/problem.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = path.resolve(projectRoot, process.env.CREWBOARD_DATA_DIR ?? '.data/dev');
const out = path.join(projectRoot, 'app', 'types', 'database.ts');

async function generate(dbUrl: string): Promise<void> {
  const types = await runSupabaseCli(
    ['gen', 'types', 'typescript', `--remote=${dbUrl}`, '--schema', 'public'],
    projectRoot,
  );
  // The CLI prints its notices (such as a connection without TLS) on stdout too, before the types.
  const start = types.indexOf('export type Json');
  writeFileSync(out, start > 0 ? types.slice(start) : types);
  console.log(`Wrote ${path.relative(projectRoot, out)}.`);
}

try {
  if (process.env.DATABASE_URL) {
    await generate(process.env.DATABASE_URL);
  } else {
    let backend;
    try {
      backend = await startBackend({
        projectRoot,
        dataDir,
        apiPort: 0,
        mailPort: 0,
        smtpPort: 0,
        dbPort: Number(process.env.DB_PORT ?? 0) || undefined,
      });
    } catch (error) {
      // The development backend is running: read its database directly.
      if (!(error instanceof SetupProblem)) throw error;
      await generate(`postgresql://postgres:postgres@127.0.0.1:${process.env.DB_PORT ?? 54322}/postgres`);
      process.exit(0);
    }
    try {
      await generate(backend.dbUrl);
    } finally {
      await backend.stop();
    }
  }
} catch (error) {
  console.error(`✖ ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
