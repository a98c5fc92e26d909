// `npm run backend`: the local Supabase-compatible backend in the foreground, until Ctrl-C.
// `npm run db:reset` (--reset-only): rebuild the local database from migrations and seed, then exit.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBackend, resetDatabase, type Backend } from './backend.ts';
import { SetupProblem } from './lib/problem.ts';
import { backendOptionsFromEnv, readEnvironment } from './local-env.ts';
import { postgrestVersion } from './rest/postgrest.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Settled in main(), where a malformed variable becomes a SetupProblem printed like the others.
let dataDir = path.join(projectRoot, '.data', 'dev');

function printStatus(backend: Backend): void {
  const rows: Array<[string, string]> = [
    ['API URL', backend.apiUrl],
    ['REST URL', `${backend.apiUrl}/rest/v1`],
    // Hosted projects run newer PostgREST releases; README.md's known differences say what that means.
    ['PostgREST', postgrestVersion()],
    ['DB URL', backend.dbUrl],
    ['Mailbox URL', backend.mailUrl],
    ['SMTP URL', backend.smtpUrl],
    ['anon key', backend.anonKey],
    ['service_role key', backend.serviceRoleKey],
    ['JWT secret', backend.jwtSecret],
  ];
  // Like `supabase functions serve`: every function served, by its URL.
  backend.functions.names().forEach((name, i) => {
    rows.push([i === 0 ? 'Functions' : '', `${backend.apiUrl}/functions/v1/${name}`]);
  });
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) console.log(`${k.padStart(width)}${k ? ':' : ' '} ${v}`);
}

async function main(): Promise<void> {
  const resetOnly = process.argv.includes('--reset-only');
  const options = backendOptionsFromEnv(projectRoot, readEnvironment(projectRoot));
  dataDir = options.dataDir;
  if (resetOnly) {
    await resetDatabase(dataDir, options.databaseUrl);
    const backend = await startBackend(options);
    await backend.stop();
    console.log(`Database rebuilt from supabase/migrations${backend.seeded ? ' and seed.sql' : ''}.`);
    return;
  }
  const backend = await startBackend(options);
  printStatus(backend);
  console.log(
    `\nLocal backend ready in ${(backend.startedInMs / 1000).toFixed(1)} s${backend.seeded ? ' (fresh database, seeded)' : ''}. Ctrl-C stops it.`,
  );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      console.log('Forced exit.');
      process.exit(1);
    }
    stopping = true;
    console.log(`\n${signal}: stopping the local backend…`);
    backend.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof SetupProblem) {
    console.error(`✖ ${error.message}`);
  } else {
    console.error(
      `✖ The local backend failed to start: ${error instanceof Error ? error.message : String(error)}`,
    );
    console.error(`  Details are in ${path.join(dataDir, 'backend.log')}.`);
  }
  process.exit(1);
});
