// Small helpers for the emulator's node:http services: bounded body reading and JSON replies.
import type { IncomingMessage, ServerResponse } from 'node:http';

export class BodyTooLarge extends Error {}
export class MalformedBody extends Error {}

/** Reads the whole body, refusing more than `limit` bytes without buffering the excess. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Parses a JSON object body; an empty body is `{}`. */
export async function readJsonObject(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const raw = await readBody(req, limit);
  if (raw.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new MalformedBody('Could not parse request body as JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new MalformedBody('Request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** The bearer token of an `Authorization` header, if any. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const value = header(req, 'authorization');
  const match = value?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

export function clientIp(req: IncomingMessage): string {
  const forwarded = header(req, 'x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded || req.socket.remoteAddress || '127.0.0.1';
}
