// Runs inside Deno, one process per function: the part of supabase/edge-runtime's user worker that a
// plain Deno needs. The function's own `Deno.serve(handler)` is bound to a loopback port chosen by
// the system, and that port is reported to the backend on stdout behind a nonce only it knows; then
// the entrypoint is imported. Reading of the upstream: edge-runtime `ext/runtime/js/http.js` (a
// worker's Deno.serve ignores the port it is given) and the CLI's
// `internal/functions/serve/templates/main.ts` (what a worker is created with).
const [nonce, entrypoint] = Deno.args;
if (!nonce || !entrypoint) {
  console.error('usage: boot.ts <nonce> <entrypoint url>');
  Deno.exit(2);
}

// What only this bootstrap needed (where Deno keeps its caches, the npm registry) leaves the
// environment before the function's code runs: a function sees its secrets and SUPABASE_*, no more.
for (const name of (Deno.env.get('SUPABASE_INTERNAL_HIDE') ?? '').split(',')) {
  if (name) Deno.env.delete(name);
}
Deno.env.delete('SUPABASE_INTERNAL_HIDE');
// Deno's own npm shim puts these in every process it runs.
Deno.env.delete('DENO_NODE_SHIM_ACTIVE');
Deno.env.delete('PATH');

type Handler = Deno.ServeHandler;
interface ServeOptions {
  handler?: Handler;
  onError?: (error: unknown) => Response | Promise<Response>;
  signal?: AbortSignal;
}

function pickHandler(args: unknown[]): { handler: Handler; options: ServeOptions } {
  const [first, second] = args;
  if (typeof first === 'function') return { handler: first as Handler, options: {} };
  const options = (first ?? {}) as ServeOptions;
  const handler = typeof second === 'function' ? (second as Handler) : options.handler;
  if (typeof handler !== 'function') throw new TypeError('Deno.serve needs a handler function');
  return { handler, options };
}

const realServe = Deno.serve.bind(Deno);
let served = false;
const serve = (...args: unknown[]): Deno.HttpServer => {
  if (served) throw new Error('A function can call Deno.serve only once.');
  served = true;
  const { handler, options } = pickHandler(args);
  return realServe(
    {
      port: 0,
      hostname: '127.0.0.1',
      signal: options.signal,
      onError: options.onError,
      onListen: ({ port }) => console.log(`\u0000${nonce} listening ${port}`),
    },
    handler,
  );
};
Object.defineProperty(Deno, 'serve', { value: serve, writable: true, configurable: true });

try {
  await import(entrypoint);
} catch (error) {
  console.error(error);
  Deno.exit(70);
}
if (!served) {
  console.error('The function did not call Deno.serve(handler) when its module was evaluated.');
  Deno.exit(70);
}
