// `npm run dev`: the local backend (unless SUPABASE_URL points elsewhere) and the Remix dev server
// on http://localhost:3000, stopped together by Ctrl-C. The backend's ports and data directory come
// from the same variables as `npm run backend` (emulator/local-env.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBackend, type Backend } from '../emulator/backend.ts';
import { SetupProblem } from '../emulator/lib/problem.ts';
import { backendOptionsFromEnv, portFromEnv, readEnvironment } from '../emulator/local-env.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function printRows(rows: Array<[string, string]>): void {
  const width = Math.max(...rows.map(([label]) => label.length)) + 1;
  for (const [label, value] of rows) console.log(`  ${(label && `${label}:`).padEnd(width)} ${value}`);
}

async function main(): Promise<void> {
  const env = readEnvironment(projectRoot);
  const appPort = portFromEnv(env, 'PORT') ?? 3000;
  const appEnv: NodeJS.ProcessEnv = { ...process.env, ...env, PORT: String(appPort) };
  appEnv.SITE_URL ??= `http://localhost:${appPort}`;

  let starting: Promise<Backend> | null = null;
  let backend: Backend | null = null;
  let remix: ChildProcess | null = null;
  let stopping = false;
  // Ctrl-C while the backend starts waits for it, so no PostgreSQL is left behind.
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    remix?.kill('SIGTERM');
    await (await starting?.catch(() => null))?.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  if (!env.SUPABASE_URL) {
    const options = backendOptionsFromEnv(projectRoot, env);
    // Auth's own links (site_url) go to the app this command starts, on whichever port it is.
    options.env = { ...options.env, AUTH_SITE_URL: env.AUTH_SITE_URL || appEnv.SITE_URL };
    starting = startBackend(options);
    backend = await starting;
    if (stopping) return;
    appEnv.SUPABASE_URL = backend.apiUrl;
    appEnv.SUPABASE_ANON_KEY = backend.anonKey;
    appEnv.SUPABASE_SERVICE_ROLE_KEY = backend.serviceRoleKey;
    console.log(
      `Local backend ready in ${(backend.startedInMs / 1000).toFixed(1)} s; logs in ${path.relative(projectRoot, path.join(options.dataDir, 'backend.log'))}`,
    );
    // Each port with the variable that moves it.
    printRows([
      ['API', `${backend.apiUrl}   (API_PORT)`],
      ['Database', `${backend.dbUrl}   (${options.databaseUrl ? 'DATABASE_URL' : 'DB_PORT'})`],
      ['Mailbox', `${backend.mailUrl}   (MAIL_PORT)`],
      ['SMTP', `${backend.smtpUrl}   (SMTP_PORT)`],
      ['App', `http://localhost:${appPort}   (PORT), starting…`],
    ]);
  }

  const app = spawn(
    process.execPath,
    [path.join(projectRoot, 'node_modules', '@remix-run', 'dev', 'dist', 'cli.js'), 'dev'],
    {
      cwd: projectRoot,
      env: appEnv,
      stdio: ['inherit', 'pipe', 'inherit'],
    },
  );
  remix = app;
  let announced = false;
  app.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    if (!announced && /remix-serve|http:\/\/localhost/.test(chunk.toString())) {
      announced = true;
      console.log('');
      if (backend) {
        printRows([
          ['App', `http://localhost:${appPort}`],
          ['Mailbox', backend.mailUrl],
          ['Demo', 'ada@demo.crewboard.test (owner), grace@demo.crewboard.test (member),'],
          ['', 'linus@demo.crewboard.test (viewer); password crewboard-demo'],
          ['API', `${backend.apiUrl}   (database ${backend.dbUrl})`],
        ]);
      } else {
        printRows([
          ['App', `http://localhost:${appPort}`],
          ['Backend', `${appEnv.SUPABASE_URL} (SUPABASE_URL)`],
        ]);
      }
      console.log('');
    }
  });

  app.on('exit', (code) => void stop(code ?? 0));
}

main().catch((error: unknown) => {
  console.error(
    error instanceof SetupProblem
      ? `✖ ${error.message}`
      : `✖ ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
