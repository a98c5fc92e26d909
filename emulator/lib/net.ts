import net from 'node:net';
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
    if (await isPortFree(port, host)) return port;
  }
  return ephemeralPort(host);
}

const LOW_PORTS = { first: 20000, last: 32767 };

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
