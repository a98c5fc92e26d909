// nginx, where the machine has it, as a native stand-in for the gateway's REST path: what a hop
// written in C costs here, next to the gateway and the bare Node relay. A hosted project's gateway is
// Kong, which is nginx; the local backend cannot ship it (decision 001: Node.js and npm packages
// only), so this is a reference row of `npm run bench`, never part of the backend. It does the
// gateway's job for a REST read as the Supabase CLI's gateway does it: no key check, the `apikey` sent
// on as `Authorization` when the request carries none, the `/rest/v1` prefix cut, a pool of keep-alive connections to PostgREST, hop-by-hop headers dropped,
// and the gateway's CORS headers in place of PostgREST's. Debian: `apt-get install nginx-light`.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EXPOSED_HEADERS } from '../emulator/gateway/gateway.ts';
import { freePort } from '../emulator/lib/net.ts';
import type { BenchBackend } from './backend.ts';

/** Whether an `nginx` binary can be run here. */
export function hasNginx(): boolean {
  const probe = spawnSync('nginx', ['-v'], { stdio: 'ignore' });
  return !probe.error && probe.status === 0;
}

const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

/** Starts nginx in front of the backend's PostgREST; its URL, and how to stop it. */
export async function startNginx(backend: BenchBackend): Promise<{ url: string; stop: () => void }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'crewboard-nginx-'));
  chmodSync(dir, 0o755); // as root, nginx's workers run as `nobody`
  const port = await freePort();
  const postgrest = new URL(backend.postgrestUrl);
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `worker_processes 1;
daemon off;
error_log stderr error;
pid ${dir}/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  map_hash_bucket_size 512;
  upstream postgrest { server ${postgrest.host}; keepalive 16; }
  map $http_authorization $authorization { "" $http_apikey; default $http_authorization; }
  server {
    listen 127.0.0.1:${port};
    location /rest/v1/ {
      proxy_set_header Authorization $authorization;
      proxy_pass http://postgrest/;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
      proxy_hide_header Access-Control-Allow-Origin;
      proxy_hide_header Access-Control-Expose-Headers;
      proxy_hide_header Vary;
      add_header Access-Control-Allow-Origin * always;
      add_header Access-Control-Expose-Headers ${quoted(EXPOSED_HEADERS)} always;
      add_header Vary Origin always;
    }
  }
}
`,
  );
  const child = spawn('nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const stop = () => {
    child.kill('SIGTERM');
    void exited.then(() => rmSync(dir, { recursive: true, force: true }));
  };
  const url = `http://127.0.0.1:${port}`;
  const read = (headers: Record<string, string>) =>
    fetch(`${url}/rest/v1/bench_items?limit=1`, { headers }).then(
      (res) => res.status,
      () => undefined, // not listening yet
    );
  for (let i = 0; i < 100 && child.exitCode === null; i++) {
    const keyed = await read({ apikey: backend.anonKey });
    if (keyed === undefined) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    if (keyed === 200) return { url, stop };
    stop();
    throw new Error(`nginx answered ${keyed} to a read with the key`);
  }
  stop();
  throw new Error('nginx did not start');
}
