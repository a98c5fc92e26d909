// The benchmarks' backend, alone in this process (see bench/backend.ts): started on the data
// directory and with the env overrides given as arguments, on free ports; it says where it listens
// over the IPC channel, answers the functions' pids and its own memory use, and stops when asked.
import path from 'node:path';
import { startBackend } from '../emulator/backend.ts';
import type { Reply, Request } from './backend.ts';

const [dataDir, env] = process.argv.slice(2);
const reply = (message: Reply) => process.send?.(message);

try {
  const backend = await startBackend({
    projectRoot: path.resolve(import.meta.dirname, '..'),
    dataDir: dataDir ?? '',
    apiPort: 0,
    dbPort: 0,
    mailPort: 0,
    smtpPort: 0,
    env: JSON.parse(env ?? '{}') as Record<string, string>,
  });
  process.on('message', (request: Request) => {
    if (request.type === 'pid')
      void backend.functions.pid(request.name).then((pid) => reply({ type: 'pid', id: request.id, pid }));
    else if (request.type === 'memory') {
      globalThis.gc?.();
      reply({ type: 'memory', id: request.id, usage: process.memoryUsage() });
    } else void backend.stop().then(() => process.exit(0));
  });
  reply({
    type: 'ready',
    backend: {
      apiUrl: backend.apiUrl,
      dbUrl: backend.dbUrl,
      postgrestUrl: backend.postgrestUrl,
      anonKey: backend.anonKey,
      serviceRoleKey: backend.serviceRoleKey,
      jwtSecret: backend.jwtSecret,
      startedInMs: backend.startedInMs,
    },
  });
} catch (error) {
  reply({ type: 'failed', message: (error as Error).message });
  process.exit(1);
}
