// What a signed-in page asks the backend for, counted by a proxy between the production build and
// the backend (docs/decisions/014-one-signed-in-request-path.md): a page that passes signedIn() its
// page query makes that one request, whatever else its loaders need (the session check, the
// membership behind the sidebar); every other page checks the session once, however many loaders run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAppScene,
  postForm,
  startAppServer,
  type AppScene,
  type AppServer,
} from '../support/app-server.ts';
import { backend } from '../support/backend.ts';
import { recordingProxy, type RecordingProxy } from '../support/recording-proxy.ts';

let proxy: RecordingProxy;
let app: AppServer;
let scene: AppScene;

beforeAll(async () => {
  proxy = await recordingProxy(backend().apiUrl);
  app = await startAppServer({ ...backend(), apiUrl: proxy.url });
  scene = await createAppScene(app, backend(), 'requests');
  const made = await postForm(
    app,
    scene.projectPath,
    { intent: 'create', title: 'Count the calls', status: scene.todo },
    scene.cookie,
  );
  expect(made.status).toBe(302);
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await proxy?.close();
});

/** The backend requests of one load of `path`, after a first load has checked the token's signature. */
async function backendRequestsOf(path: string): Promise<string[]> {
  const load = async () => {
    const res = await fetch(`${app.url}${path}`, { headers: { Cookie: scene.cookie }, redirect: 'manual' });
    expect(res.status, path).toBe(200);
    await res.arrayBuffer();
  };
  await load();
  proxy.requests.length = 0;
  await load();
  return proxy.requests.map((request) => request.split('?')[0] ?? request);
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
    // The timeline's comments and history come embedded in one read of the task, not on their own.
    expect(requests.filter((r) => /^GET \/rest\/v1\/(comments|task_history)\b/.test(r))).toEqual([]);
  });
});

describe('a saved view', () => {
  it('opens with the board call standing in for the session check, and one read of the view', async () => {
    const saved = await postForm(
      app,
      `${scene.projectPath}/views/new?priority=high`,
      { name: 'Urgent', kind: 'board', query: 'priority=high' },
      scene.cookie,
    );
    expect(saved.status).toBe(302);
    const view = saved.headers.get('Location') ?? '';
    expect(view).toMatch(/\/views\/[0-9a-f-]{36}\?priority=high$/);
    expect(await backendRequestsOf(view)).toEqual([
      'POST /rest/v1/rpc/board_page',
      'GET /rest/v1/saved_views',
    ]);
  });
});

describe('a signed-in page without one', () => {
  it('checks the session once and loads the membership once, for all its loaders', async () => {
    for (const page of ['members', 'labels']) {
      const requests = await backendRequestsOf(`/w/${scene.workspace}/${page}`);
      expect(requests.filter((r) => r === 'POST /rest/v1/rpc/session_status')).toHaveLength(1);
      expect(requests.filter((r) => r === 'GET /rest/v1/workspaces')).toHaveLength(1);
    }
  });
});
