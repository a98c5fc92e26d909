import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SetupProblem } from './problem.ts';

/** Resolves true when nothing listens on host:port. */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * A port free right now, for a server that starts later and must know its port first (the database,
 * the gateway whose URL the auth emails carry). Picked below the ephemeral range (32768–60999 on
 * Linux, 49152+ on macOS and Windows): a port the OS hands out for `listen(0)` comes from that range
 * too, so any outgoing connection opened before the server binds could take it — CI once lost the
 * mailbox's port to one. Servers that can report their own port should listen on 0 instead.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOW_PORTS.first + Math.floor(Math.random() * (LOW_PORTS.last - LOW_PORTS.first + 1));
    if (reserve(port) && (await isPortFree(port, host))) return port;
  }
  return ephemeralPort(host);
}

const LOW_PORTS = { first: 20000, last: 32767 };

/**
 * Ports freePort has handed out, one empty file each, shared by every process on this machine that
 * picks ports this way. A port is picked seconds before its server binds it (the gateway binds after
 * the database has started and migrated), and in between it looks free to anyone who probes it. The
 * test suite starts backends in several workers at once, and CI once lost a gateway's port to
 * another worker's pick.
 */
const RESERVATIONS = path.join(tmpdir(), 'crewboard-ports');

/** Longer than the slowest start from a pick to its bind; by then the server holds the port itself. */
const RESERVED_FOR_MS = 120_000;

/**
 * Marks `port` as promised, or answers false when another pick promised it less than
 * RESERVED_FOR_MS ago. Where the mark cannot be written (another user's folder), the probe alone
 * decides, as before.
 */
function reserve(port: number): boolean {
  const file = path.join(RESERVATIONS, String(port));
  const claim = () => writeFileSync(file, '', { flag: 'wx' });
  try {
    mkdirSync(RESERVATIONS, { recursive: true });
    claim();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return true;
  }
  try {
    if (Date.now() - statSync(file).mtimeMs < RESERVED_FOR_MS) return false;
    // An old promise: whoever made it has bound the port by now, or never will. (Two processes
    // taking over one old promise in the same instant could both succeed; the probe still checks.)
    rmSync(file, { force: true });
    claim();
    return true;
  } catch {
    return false;
  }
}

function ephemeralPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ port: 0, host }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Fails with one line of cause and one of fix when `port` is taken. `setting` is what moves the port
 * (e.g. `MAIL_PORT`); `fromSetting` says the port came from it, so the person set a taken value
 * themselves rather than ran into a default.
 */
export async function requirePortFree(
  port: number,
  what: string,
  setting: string,
  fromSetting = false,
): Promise<void> {
  if (await isPortFree(port)) return;
  throw fromSetting
    ? new SetupProblem(
        `Port ${port} (${what}), from ${setting}, is already in use.`,
        `set ${setting} to another free port, or stop what listens on it (\`lsof -i :${port}\`).`,
      )
    : new SetupProblem(
        `Port ${port} (${what}) is already in use.`,
        `set ${setting} to a free port, or stop what listens on it (\`lsof -i :${port}\`).`,
      );
}
