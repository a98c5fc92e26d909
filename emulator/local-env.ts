// What `npm run dev` and `npm run backend` take from the environment to start the local backend.
// Both commands read it here, so a variable one of them honours cannot be missed by the other.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { type BackendOptions, PORT_VARIABLES, type PortOption } from './backend-options.ts';
import type { Environment } from './config.ts';
import { SetupProblem } from './lib/problem.ts';

const PORT_OPTIONS: PortOption[] = ['apiPort', 'dbPort', 'mailPort', 'smtpPort'];

/**
 * The process environment over the project's `.env`, as `remix dev` layers them (dotenv never
 * overrides a variable that is already set). `.env.example` tells people to copy it to `.env`,
 * so a port set there has to move the backend too, not only the app.
 */
export function readEnvironment(projectRoot: string, processEnv: Environment = process.env): Environment {
  const file = path.join(projectRoot, '.env');
  const fromFile = existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {};
  return { ...fromFile, ...processEnv };
}

/** The port in the variable `name`, or undefined when it is unset or empty. */
export function portFromEnv(env: Environment, name: string): number | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 1 && port <= 65535)) {
    throw new SetupProblem(
      `${name} is "${value}", which is not a port number.`,
      `set ${name} to a free port from 1 to 65535, or unset it to use the default.`,
    );
  }
  return port;
}

function databaseUrlFromEnv(env: Environment): string | undefined {
  const value = env.DATABASE_URL?.trim();
  if (!value) return undefined;
  let protocol = '';
  try {
    protocol = new URL(value).protocol;
  } catch {
    // Not a URL at all; refused below with the same message.
  }
  if (protocol !== 'postgresql:' && protocol !== 'postgres:') {
    // The value is not repeated: it may hold a password.
    throw new SetupProblem(
      'DATABASE_URL is not a postgresql:// connection URL.',
      'set it to postgresql://user:password@host:port/database, or unset it to use the built-in database.',
    );
  }
  return value;
}

/**
 * Options for startBackend from API_PORT, DB_PORT, MAIL_PORT, SMTP_PORT, CREWBOARD_DATA_DIR and
 * DATABASE_URL. A relative data directory is taken from the project root, wherever the command runs.
 */
export function backendOptionsFromEnv(projectRoot: string, env: Environment): BackendOptions {
  const portsFromEnvironment: PortOption[] = [];
  const options: BackendOptions = {
    projectRoot,
    dataDir: path.resolve(projectRoot, env.CREWBOARD_DATA_DIR?.trim() || '.data/dev'),
    databaseUrl: databaseUrlFromEnv(env),
    portsFromEnvironment,
    // The backend's own settings (AUTH_SITE_URL, AUTH_RATE_LIMIT_*, …) may come from .env as well.
    env,
  };
  for (const option of PORT_OPTIONS) {
    const port = portFromEnv(env, PORT_VARIABLES[option]);
    if (port === undefined) continue;
    options[option] = port;
    portsFromEnvironment.push(option);
  }
  return options;
}
