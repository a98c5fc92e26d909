export {};
// Load generator for the REST comparison, run as its own process so that it does not share an event
// loop with the gateway it measures. The same read goes through every path named on the command line
// (the gateway, PostgREST directly, the bare Node relay of relay.ts and, where it is installed, nginx
// as a native stand-in for the gateway), interleaved so that all of them see the same machine load.
// Usage: rest-client <anon key> <name>=<url>…; prints {"<name>": median ms, …} as JSON.
const [key, ...named] = process.argv.slice(2);
const pairs = named.map((arg) => {
  const at = arg.indexOf('=');
  return { name: arg.slice(0, at), url: arg.slice(at + 1) };
});
if (!key || pairs.length === 0 || pairs.some((p) => !p.name || !p.url))
  throw new Error('usage: rest-client <anon key> <name>=<url>…');

const query = '/bench_items?select=id,title,done&done=eq.false&order=id&limit=20';
const read = (url: string) => () =>
  fetch(`${url}${query}`, { headers: { apikey: key, Authorization: `Bearer ${key}` } }).then((r) =>
    r.arrayBuffer(),
  );
const paths = pairs.map((p) => ({ name: p.name, read: read(p.url), times: [] as number[] }));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

for (let i = 0; i < 300; i++) for (const p of paths) await p.read();
// Each round takes the paths in another order, so none always follows the same one.
for (let i = 0; i < 2000; i++) {
  for (let j = 0; j < paths.length; j++) {
    const p = paths[(i + j) % paths.length]!;
    const t0 = performance.now();
    await p.read();
    p.times.push(performance.now() - t0);
  }
}
console.log(JSON.stringify(Object.fromEntries(paths.map((p) => [p.name, median(p.times)]))));
