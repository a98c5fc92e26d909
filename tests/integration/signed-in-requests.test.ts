// What a signed-in page asks the backend for, counted by a proxy between the production build and
// the backend (docs/decisions/014-one-signed-in-request-path.md): a page that passes signedIn() its
// page query makes that one request, whatever else its loaders need (the session check, the
// membership behind the sidebar); every other page checks the session once, however many loaders run.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAppScene,
  postForm,
  startAppServer,
  type AppScene,
  type AppServer,
} from '../support/app-server.ts';
import { backend } from '../support/backend.ts';

let proxy: http.Server;
let app: AppServer;
let scene: AppScene;
/** `METHOD /path` of every request the app sent the backend, in order. */
let calls: string[] = [];

beforeAll(async () => {
  const upstream = new URL(backend().apiUrl);
  proxy = http.createServer((req, res) => {
    calls.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { anonKey, serviceRoleKey } = backend();
  app = await startAppServer({
    apiUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    anonKey,
    serviceRoleKey,
  });
  scene = await createAppScene(app, backend(), 'requests');
  const made = await postForm(
    app,
    scene.projectPath,
    { intent: 'create', title: 'Count the calls', status: 'todo' },
    scene.cookie,
  );
  expect(made.status).toBe(302);
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
});

/** The backend requests of one load of `path`, after a first load has checked the token's signature. */
async function backendRequestsOf(path: string): Promise<string[]> {
  const load = async () => {
    const res = await fetch(`${app.url}${path}`, { headers: { Cookie: scene.cookie }, redirect: 'manual' });
    expect(res.status, path).toBe(200);
    await res.arrayBuffer();
  };
  await load();
  calls = [];
  await load();
  return calls;
}

describe('a signed-in page with a page query', () => {
  it('loads the board (root, workspace layout and board loaders) in one backend request', async () => {
    expect(await backendRequestsOf(scene.projectPath)).toEqual(['POST /rest/v1/rpc/board_page']);
  });

  it('loads the board as a client-side navigation does, in one backend request', async () => {
    const data = `${scene.projectPath}?_data=${encodeURIComponent('routes/w.$workspace.p.$project')}`;
    expect(await backendRequestsOf(data)).toEqual(['POST /rest/v1/rpc/board_page']);
  });

  it('loads the overview and the profile page in one backend request each', async () => {
    expect(await backendRequestsOf(`/w/${scene.workspace}`)).toEqual(['POST /rest/v1/rpc/overview_page']);
    expect(await backendRequestsOf('/account')).toEqual(['POST /rest/v1/rpc/account_page']);
  });

  it('opens a task over the board with the board call standing in for the session check and membership', async () => {
    const requests = await backendRequestsOf(`${scene.projectPath}/t/1`);
    expect(requests.filter((r) => r === 'POST /rest/v1/rpc/board_page')).toHaveLength(1);
    expect(requests).not.toContain('POST /rest/v1/rpc/session_status');
    expect(requests).not.toContain('GET /rest/v1/workspaces');
  });
});

describe('a signed-in page without one', () => {
  it('checks the session once and loads the membership once, for all its loaders', async () => {
    const requests = await backendRequestsOf(`/w/${scene.workspace}/members`);
    expect(requests.filter((r) => r === 'POST /rest/v1/rpc/session_status')).toHaveLength(1);
    expect(requests.filter((r) => r === 'GET /rest/v1/workspaces')).toHaveLength(1);
  });
});
