export {};
// Load generator for the REST comparison, run as its own process so that it does not share an event
// loop with the gateway it measures. Prints {"gateway": ms, "direct": ms} medians as JSON.
const [gatewayUrl, directUrl, key] = process.argv.slice(2);
if (!gatewayUrl || !directUrl || !key)
  throw new Error('usage: rest-client <gateway url> <postgrest url> <anon key>');

const query = '/bench_items?select=id,title,done&done=eq.false&order=id&limit=20';
const viaGateway = () =>
  fetch(`${gatewayUrl}/rest/v1${query}`, { headers: { apikey: key, Authorization: `Bearer ${key}` } }).then(
    (r) => r.arrayBuffer(),
  );
const direct = () =>
  fetch(`${directUrl}${query}`, { headers: { Authorization: `Bearer ${key}` } }).then((r) => r.arrayBuffer());

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

for (let i = 0; i < 300; i++) await Promise.all([viaGateway(), direct()]);
const g: number[] = [];
const d: number[] = [];
// Interleaved, so both paths see the same machine load.
for (let i = 0; i < 2000; i++) {
  if (i % 2 === 0) {
    g.push(await timed(viaGateway));
    d.push(await timed(direct));
  } else {
    d.push(await timed(direct));
    g.push(await timed(viaGateway));
  }
}
console.log(JSON.stringify({ gateway: median(g), direct: median(d) }));
