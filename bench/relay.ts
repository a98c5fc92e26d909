// The floor of any hop written in Node: a bare TCP relay in a process of its own. Each client
// connection gets one connection to PostgREST; the request line loses its `/rest/v1` prefix and every
// other byte is passed as it came, both ways: no parsing, no pooling, no headers checked or changed.
// The gateway does all of that and more, so on the same machine it cannot be faster than this; the
// REST rows of `npm run bench` print the two side by side. Prints the port it listens on.
import net from 'node:net';

const postgrestPort = Number(process.argv[2]);
if (!postgrestPort) throw new Error('usage: relay <postgrest port>');

const server = net.createServer({ noDelay: true }, (client) => {
  const upstream = net.connect({ port: postgrestPort, host: '127.0.0.1', noDelay: true });
  client.on('data', (data: Buffer) => {
    upstream.write(data.toString('latin1').replace(' /rest/v1/', ' /'), 'latin1');
  });
  upstream.on('data', (data: Buffer) => client.write(data));
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
  client.on('error', () => client.destroy());
  upstream.on('error', () => upstream.destroy());
});
server.listen(0, '127.0.0.1', () => console.log((server.address() as net.AddressInfo).port));
process.on('SIGTERM', () => process.exit(0));
