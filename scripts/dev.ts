// `npm run dev`: the local backend (unless SUPABASE_URL points elsewhere) and the Remix dev server
// on http://localhost:3000, stopped together by Ctrl-C.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBackend, type Backend } from '../emulator/backend.ts';
import { SetupProblem } from '../emulator/lib/problem.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const appPort = Number(process.env.PORT ?? 3000);
const dataDir = path.resolve(projectRoot, process.env.CREWBOARD_DATA_DIR ?? '.data/dev');

async function main(): Promise<void> {
  let backend: Backend | null = null;
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(appPort) };
  if (!process.env.SUPABASE_URL) {
    backend = await startBackend({
      projectRoot,
      dataDir,
      databaseUrl: process.env.DATABASE_URL || undefined,
    });
    env.SUPABASE_URL = backend.apiUrl;
    env.SUPABASE_ANON_KEY = backend.anonKey;
    env.SUPABASE_SERVICE_ROLE_KEY = backend.serviceRoleKey;
    env.SMTP_URL ??= backend.smtpUrl;
  }
  env.SITE_URL ??= `http://localhost:${appPort}`;

  const remix = spawn(
    process.execPath,
    [path.join(projectRoot, 'node_modules', '@remix-run', 'dev', 'dist', 'cli.js'), 'dev'],
    {
      cwd: projectRoot,
      env,
      stdio: ['inherit', 'pipe', 'inherit'],
    },
  );
  let announced = false;
  remix.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    if (!announced && /remix-serve|http:\/\/localhost/.test(chunk.toString())) {
      announced = true;
      console.log(`\n  App:      http://localhost:${appPort}`);
      if (backend) {
        console.log(`  Mailbox:  ${backend.mailUrl}`);
        console.log('  Demo:     ada@demo.crewboard.test (owner), grace@demo.crewboard.test (member),');
        console.log('            linus@demo.crewboard.test (viewer); password crewboard-demo');
        console.log(`  API:      ${backend.apiUrl}   (database ${backend.dbUrl})`);
        console.log(
          `  Backend ready in ${(backend.startedInMs / 1000).toFixed(1)} s; logs in ${path.relative(projectRoot, path.join(dataDir, 'backend.log'))}`,
        );
      } else {
        console.log(`  Backend:  ${env.SUPABASE_URL} (SUPABASE_URL)`);
      }
      console.log('');
    }
  });

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    remix.kill('SIGTERM');
    await backend?.stop();
    process.exit(code);
  };
  remix.on('exit', (code) => void stop(code ?? 0));
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
}

main().catch((error: unknown) => {
  console.error(
    error instanceof SetupProblem
      ? `✖ ${error.message}`
      : `✖ ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
