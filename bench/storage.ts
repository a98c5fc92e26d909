// Storage: a 10 MB file uploaded and downloaded through the gateway and the storage service, each as
// a ratio to copying the same file on disk in the same run (medians of a few rounds).
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Backend } from '../emulator/backend.ts';

const SIZE = 10 * 1024 * 1024;
const ROUNDS = 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function timed(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export async function benchStorage(
  backend: Backend,
): Promise<{ uploadMs: number; downloadMs: number; diskCopyMs: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'crewboard-bench-storage-'));
  const source = path.join(dir, 'ten-megabytes.bin');
  writeFileSync(source, Buffer.alloc(SIZE, 7));
  const headers = { apikey: backend.serviceRoleKey, Authorization: `Bearer ${backend.serviceRoleKey}` };
  const api = `${backend.apiUrl}/storage/v1`;
  try {
    const bucket = await fetch(`${api}/bucket`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'bench', name: 'bench', public: false }),
    });
    if (!bucket.ok && bucket.status !== 400) throw new Error(`bucket: ${bucket.status}`);
    const uploads: number[] = [];
    const downloads: number[] = [];
    const copies: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const name = `round-${round}.bin`;
      uploads.push(
        await timed(async () => {
          const res = await fetch(`${api}/object/bench/${name}`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/octet-stream', 'x-upsert': 'true' },
            body: Readable.toWeb(createReadStream(source)) as ReadableStream,
            duplex: 'half',
          } as RequestInit);
          if (!res.ok) throw new Error(`upload: ${res.status} ${await res.text()}`);
        }),
      );
      downloads.push(
        await timed(async () => {
          const res = await fetch(`${api}/object/bench/${name}`, { headers });
          if (!res.ok || !res.body) throw new Error(`download: ${res.status}`);
          let received = 0;
          const reader = res.body.getReader();
          for (let part = await reader.read(); !part.done; part = await reader.read())
            received += part.value.byteLength;
          if (received !== SIZE) throw new Error(`download: ${received} bytes`);
        }),
      );
      copies.push(await timed(() => copyFile(source, path.join(dir, `copy-${round}.bin`))));
    }
    return { uploadMs: median(uploads), downloadMs: median(downloads), diskCopyMs: median(copies) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
