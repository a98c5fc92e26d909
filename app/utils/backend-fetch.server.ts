// How the app's server reaches the Supabase backend: over connections kept open between requests.
//
// remix-serve replaces the global fetch with @remix-run/web-fetch, which opens a new TCP (and TLS)
// connection for every request unless it is given an agent: on a signed-in page that is two or three
// connections made and torn down, measured as the largest kernel and CPU cost of a page load
// (`npm run bench`). Node's own fetch, where it is the global one (vitest, `remix dev`), keeps
// connections alive by itself and ignores the `agent` field.
import http from 'node:http';
import https from 'node:https';

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

const agentFor = (url: URL) => (url.protocol === 'https:' ? agents.https : agents.http);

/** fetch, with the keep-alive agent for the backend's origin. */
export const backendFetch: typeof fetch = (input, init) =>
  fetch(input, { ...init, agent: agentFor } as RequestInit);
