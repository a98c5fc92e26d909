// The backend the benchmarks measure runs in a process of its own (bench/backend-process.ts): the
// load generators here never share an event loop, a heap or a garbage collector with the gateway,
// auth, storage and realtime services they time. This is the handle the benchmarks get.
import { fork } from 'node:child_process';
import path from 'node:path';
import type { Backend } from '../emulator/backend.ts';

export type BenchBackend = Pick<
  Backend,
  'apiUrl' | 'dbUrl' | 'postgrestUrl' | 'anonKey' | 'serviceRoleKey' | 'jwtSecret' | 'startedInMs'
> & {
  /** The backend's process: its PostgreSQL and PostgREST are its children. */
  pid: number;
  functions: { pid(name: string): Promise<number | undefined> };
  /** The backend process's own view of its memory (V8 heap, buffers), which its RSS alone hides. */
  memory(): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
};

export type Reply =
  | { type: 'ready'; backend: Omit<BenchBackend, 'pid' | 'functions' | 'memory' | 'stop'> }
  | { type: 'pid'; id: number; pid: number | undefined }
  | { type: 'memory'; id: number; usage: NodeJS.MemoryUsage }
  | { type: 'failed'; message: string };

export type Request =
  { type: 'pid'; id: number; name: string } | { type: 'memory'; id: number } | { type: 'stop' };

/** Starts the backend on `dataDir` in a child process, with `env` as startBackend's env overrides. */
export function startBenchBackend(dataDir: string, env: Record<string, string>): Promise<BenchBackend> {
  const child = fork(path.join(import.meta.dirname, 'backend-process.ts'), [dataDir, JSON.stringify(env)], {
    // --expose-gc: the soak measures the heap that survives a full collection, i.e. what is kept.
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pids = new Map<number, (pid: number | undefined) => void>();
  const usages = new Map<number, (usage: NodeJS.MemoryUsage) => void>();
  let next = 0;
  const send = (request: Request) => child.send(request);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`the bench backend exited with ${code} before it was ready`)),
    );
    child.on('message', (reply: Reply) => {
      if (reply.type === 'failed') reject(new Error(reply.message));
      else if (reply.type === 'pid') pids.get(reply.id)?.(reply.pid);
      else if (reply.type === 'memory') usages.get(reply.id)?.(reply.usage);
      else
        resolve({
          ...reply.backend,
          pid: child.pid ?? 0,
          functions: {
            pid: (name) =>
              new Promise((answer) => {
                const id = next++;
                pids.set(id, answer);
                send({ type: 'pid', id, name });
              }),
          },
          memory: () =>
            new Promise((answer) => {
              const id = next++;
              usages.set(id, answer);
              send({ type: 'memory', id });
            }),
          async stop() {
            send({ type: 'stop' });
            await exited;
          },
        });
    });
  });
}
