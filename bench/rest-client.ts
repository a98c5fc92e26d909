export {};
// Load generator for the REST comparison, run as its own process so that it does not share an event
// loop with the gateway it measures. The same read goes through the gateway, straight to PostgREST
// and through a bare Node relay (relay.ts), interleaved so that all three see the same machine load.
// Prints {"gateway": ms, "direct": ms, "relay": ms} medians as JSON.
const [gatewayUrl, directUrl, relayUrl, key] = process.argv.slice(2);
if (!gatewayUrl || !directUrl || !relayUrl || !key)
  throw new Error('usage: rest-client <gateway url> <postgrest url> <relay url> <anon key>');

const query = '/bench_items?select=id,title,done&done=eq.false&order=id&limit=20';
const read = (url: string) => () =>
  fetch(url, { headers: { apikey: key, Authorization: `Bearer ${key}` } }).then((r) => r.arrayBuffer());
const paths = {
  gateway: read(`${gatewayUrl}/rest/v1${query}`),
  direct: read(`${directUrl}${query}`),
  relay: read(`${relayUrl}/rest/v1${query}`),
};
const names = Object.keys(paths) as (keyof typeof paths)[];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

for (let i = 0; i < 300; i++) for (const name of names) await paths[name]();
const times = { gateway: [] as number[], direct: [] as number[], relay: [] as number[] };
// Each round takes the three in another order, so none always follows the same one.
for (let i = 0; i < 2000; i++) {
  for (let j = 0; j < names.length; j++) {
    const name = names[(i + j) % names.length] as keyof typeof paths;
    const t0 = performance.now();
    await paths[name]();
    times[name].push(performance.now() - t0);
  }
}
console.log(
  JSON.stringify({
    gateway: median(times.gateway),
    direct: median(times.direct),
    relay: median(times.relay),
  }),
);
