// The gateway's keep-alive client against a fake upstream that answers with hand-written bytes,
// cut at awkward places, the way TCP may deliver them.
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Upstream } from './upstream.ts';

const servers: net.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A fake upstream: `answer` gets each request head and writes the reply itself. */
async function fakeUpstream(answer: (socket: net.Socket, head: string) => void): Promise<number> {
  const server = net.createServer((socket) => {
    let buf = '';
    socket.on('error', () => socket.destroy()); // the client may cut a connection off
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      const end = buf.indexOf('\r\n\r\n');
      if (end !== -1) {
        const head = buf.slice(0, end);
        buf = buf.slice(end + 4);
        answer(socket, head);
      }
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as net.AddressInfo).port;
}

/** A gateway-like server that forwards everything through `Upstream`. */
async function through(port: number): Promise<{ url: string; upstream: Upstream }> {
  const upstream = new Upstream({ host: '127.0.0.1', port, requestHeadersNotForwarded: ['connection'] });
  const server = http.createServer((req, res) =>
    upstream.forward({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      rawHeaders: ['Host', 'gateway', 'x-test', 'yes', 'Connection', 'keep-alive'],
      res,
      fail: () => {
        res.writeHead(502);
        res.end('bad gateway');
      },
    }),
  );
  servers.push(server);
  server.on('close', () => upstream.destroy());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, upstream };
}

/** Writes `data` a few bytes at a time, so every parser state sees a cut. */
async function dribble(socket: net.Socket, data: string): Promise<void> {
  for (let i = 0; i < data.length; i += 3) {
    socket.write(data.slice(i, i + 3), 'latin1');
    await new Promise((r) => setTimeout(r, 1));
  }
}

describe('Upstream', () => {
  it('decodes a chunked body cut anywhere, and reuses the connection', async () => {
    let connections = 0;
    const heads: string[] = [];
    const port = await fakeUpstream((socket, head) => {
      heads.push(head);
      void dribble(
        socket,
        'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n' +
          '5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n',
      );
    });
    servers[0]?.on('connection', () => connections++);
    const { url } = await through(port);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${url}/items?id=eq.${i}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain');
      expect(await res.text()).toBe('hello, world');
    }
    expect(connections).toBe(1);
    expect(heads[0]).toMatch(/^GET \/items\?id=eq\.0 HTTP\/1\.1\r\nHost: 127\.0\.0\.1:\d+\r\nx-test: yes$/);
  });

  it('streams a Content-Length body and answers HEAD and 204 without one', async () => {
    const port = await fakeUpstream((socket, head) => {
      if (head.startsWith('HEAD')) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n');
      else if (head.includes('/empty')) socket.write('HTTP/1.1 204 No Content\r\n\r\n');
      else void dribble(socket, 'HTTP/1.1 201 Created\r\nContent-Length: 11\r\n\r\nhello world');
    });
    const { url } = await through(port);
    const created = await fetch(`${url}/x`);
    expect(created.status).toBe(201);
    expect(await created.text()).toBe('hello world');
    const head = await fetch(`${url}/x`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe('5');
    expect((await fetch(`${url}/empty`)).status).toBe(204);
    expect(await (await fetch(`${url}/x`)).text()).toBe('hello world');
  });

  it('reads a body without framing until the upstream closes', async () => {
    const port = await fakeUpstream((socket) => socket.end('HTTP/1.1 200 OK\r\n\r\nuntil close'));
    const { url } = await through(port);
    expect(await (await fetch(`${url}/a`)).text()).toBe('until close');
    expect(await (await fetch(`${url}/b`)).text()).toBe('until close');
  });

  it('sends a GET again when a kept-alive connection was closed under it, and answers 502 otherwise', async () => {
    let served = 0;
    const port = await fakeUpstream((socket) => {
      served++;
      // Each connection answers once and then drops the next request unanswered.
      if ((socket as net.Socket & { used?: boolean }).used) socket.destroy();
      else {
        (socket as net.Socket & { used?: boolean }).used = true;
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
      }
    });
    const { url } = await through(port);
    expect(await (await fetch(`${url}/a`)).text()).toBe('ok');
    expect(await (await fetch(`${url}/b`)).text()).toBe('ok');
    expect(served).toBe(3);
    const post = await fetch(`${url}/c`, { method: 'POST' });
    expect(post.status).toBe(502);
  });

  it('drops the answer of a client that went away: kept if it came whole, cut off if not', async () => {
    const sockets = new Set<net.Socket>();
    const big = 'x'.repeat(4 << 20);
    const port = await fakeUpstream((socket, head) => {
      sockets.add(socket);
      // Slow answers; the big one is read in many pieces.
      const body = head.startsWith('GET /big') ? big : 'ok';
      setTimeout(() => socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`), 100);
    });
    const { url } = await through(port);
    const gone = (path: string) =>
      fetch(`${url}${path}`, { signal: AbortSignal.timeout(20) }).catch((error: unknown) => error);
    expect(await gone('/small')).toBeInstanceOf(Error);
    await new Promise((r) => setTimeout(r, 200));
    expect(await (await fetch(`${url}/next`)).text()).toBe('ok');
    expect(sockets.size).toBe(1);
    expect(await gone('/big')).toBeInstanceOf(Error);
    await new Promise((r) => setTimeout(r, 200));
    const [socket] = sockets;
    expect(socket?.destroyed).toBe(true);
    expect(await (await fetch(`${url}/next`)).text()).toBe('ok');
  });

  it('answers 502 for a malformed response', async () => {
    const port = await fakeUpstream((socket) => socket.write('garbage\r\n\r\n'));
    const { url } = await through(port);
    const res = await fetch(`${url}/a`);
    expect(res.status).toBe(502);
  });
});
