// How a backend is started: what backend.ts takes, and what local-env.ts reads from the environment.
import type { Environment } from './config.ts';

/** The variable that moves each port of the local backend; without it, supabase/config.toml decides. */
export const PORT_VARIABLES = {
  apiPort: 'API_PORT',
  dbPort: 'DB_PORT',
  mailPort: 'MAIL_PORT',
  smtpPort: 'SMTP_PORT',
} as const;

export type PortOption = keyof typeof PORT_VARIABLES;

export interface BackendOptions {
  projectRoot: string;
  /** Where this backend keeps its database, keys and logs. Never shared by two backends. */
  dataDir: string;
  apiPort?: number;
  dbPort?: number;
  mailPort?: number;
  smtpPort?: number;
  /** The ports above that the person set in the environment: a taken one is then their value, not a default. */
  portsFromEnvironment?: PortOption[];
  /** Pick free ports instead of failing when the configured ones are taken (tests). */
  fallbackToFreePorts?: boolean;
  databaseUrl?: string;
  /** Extra settings on top of supabase/config.toml (tests shorten limits). */
  env?: Environment;
}
