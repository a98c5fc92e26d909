// Who is asking: the visitor's address, for limits that must tell visitors apart, and whether they
// came over https. Behind a proxy the socket belongs to the proxy, and X-Forwarded-For and
// X-Forwarded-Proto say whom the proxy served and how, but any visitor can write those headers too:
// they are believed only from proxies we trust (TRUST_PROXY).
import { isIP } from 'node:net';
import type { TrustProxy } from './env.server.ts';

/** The socket's address, written onto each request by the request guard (request-guard.server.ts). */
export const PEER_HEADER = 'x-crewboard-peer';

function normalise(address: string): string {
  const trimmed = address.trim().replace(/^\[|\]$/g, '');
  // IPv4 seen through an IPv6 socket.
  return trimmed.toLowerCase().startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4
    ? trimmed.slice(7)
    : trimmed.toLowerCase();
}

function ipv4ToBits(address: string): bigint {
  return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function ipv6ToBits(address: string): bigint {
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1]) {
    const bits = ipv4ToBits(v4[1]);
    text = `${text.slice(0, -v4[1].length)}${(bits >> 16n).toString(16)}:${(bits & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const missing = 8 - headParts.length - tailParts.length;
  const parts = tail === undefined ? headParts : [...headParts, ...Array(missing).fill('0'), ...tailParts];
  return parts.reduce((acc, part) => (acc << 16n) | BigInt(parseInt(part || '0', 16)), 0n);
}

/** Whether an address lies in an address or CIDR range (`10.0.0.0/8`, `::1`). */
export function inRange(address: string, range: string): boolean {
  const ip = normalise(address);
  const [base = '', bitsText] = range.split('/');
  const family = isIP(ip);
  const rangeBase = normalise(base);
  if (family === 0 || family !== isIP(rangeBase)) return false;
  const width = family === 4 ? 32 : 128;
  const bits = bitsText === undefined ? width : Number(bitsText);
  const toBits = family === 4 ? ipv4ToBits : ipv6ToBits;
  const shift = BigInt(width - bits);
  return toBits(ip) >> shift === toBits(rangeBase) >> shift;
}

/**
 * The visitor's address. Without TRUST_PROXY: the socket's. With `true`: the entry the nearest
 * proxy appended to X-Forwarded-For. With a list: walk X-Forwarded-For from the right past every
 * trusted proxy; the first address that is not one is the visitor.
 */
export function clientAddress(request: Request, trust: TrustProxy): string {
  const peer = normalise(request.headers.get(PEER_HEADER) ?? '') || 'unknown';
  if (trust.kind === 'none') return peer;
  const forwarded = (request.headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map(normalise)
    .filter((entry) => entry !== '');
  if (trust.kind === 'nearest') {
    const nearest = forwarded.at(-1);
    return nearest && isIP(nearest) ? nearest : peer;
  }
  const trusted = (address: string) => trust.proxies.some((range) => inRange(address, range));
  if (!trusted(peer)) return peer;
  let client = peer;
  for (let i = forwarded.length - 1; i >= 0; i--) {
    const entry = forwarded[i] ?? '';
    if (!isIP(entry)) break;
    client = entry;
    if (!trusted(entry)) break;
  }
  return client;
}

/**
 * Whether the visitor reached the app over https: on this server's own TLS connection (`direct`), or
 * through a proxy that TRUST_PROXY trusts and that says so in X-Forwarded-Proto. With `true` the
 * socket is that proxy; with a list it must be one of them. A proxy that appends to the header
 * rather than replacing it wrote the last entry.
 */
export function visitorUsedHttps(
  direct: boolean,
  peer: string | undefined,
  forwardedProto: string | null | undefined,
  trust: TrustProxy,
): boolean {
  if (direct) return true;
  if (trust.kind === 'none' || !forwardedProto) return false;
  if (trust.kind === 'list' && !trust.proxies.some((range) => inRange(peer ?? '', range))) return false;
  return forwardedProto.split(',').at(-1)?.trim().toLowerCase() === 'https';
}

/** visitorUsedHttps for a request the request guard has seen (it carries the socket's address). */
export function requestUsedHttps(request: Request, trust: TrustProxy): boolean {
  // A Request's url is absolute and its scheme lower case (the URL parser wrote it).
  return visitorUsedHttps(
    request.url.startsWith('https:'),
    request.headers.get(PEER_HEADER) ?? undefined,
    request.headers.get('x-forwarded-proto'),
    trust,
  );
}
