// Storage: a 10 MB file uploaded and downloaded through the gateway and the storage service, each as
// a ratio to the same work on disk without them, in the same run (medians of a few rounds). Like with
// like: the service streams an upload into a file and fsyncs it before publishing it (storage/files.ts),
// so the upload's yardstick streams the file into another and fsyncs it too; a download streams a
// stored file out, so its yardstick streams the file in.
import { createReadStream, createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BenchBackend } from './backend.ts';

const SIZE = 10 * 1024 * 1024;
const ROUNDS = 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function timed(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** The upload's work without the services: the bytes streamed into a new file, then fsync. */
async function writeToDisk(source: string, target: string): Promise<void> {
  await pipeline(createReadStream(source), createWriteStream(target, { flags: 'wx' }));
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The download's work without the services: the file streamed in, every byte. */
async function readFromDisk(source: string): Promise<void> {
  let received = 0;
  for await (const chunk of createReadStream(source)) received += (chunk as Buffer).byteLength;
  if (received !== SIZE) throw new Error(`read ${received} bytes`);
}

export interface StorageFigures {
  uploadMs: number;
  /** Streaming the file into a new one and fsyncing it, as the service does with an upload. */
  diskWriteMs: number;
  downloadMs: number;
  /** Streaming the file from disk, as the service does for a download. */
  diskReadMs: number;
}

export async function benchStorage(backend: BenchBackend): Promise<StorageFigures> {
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
    const writes: number[] = [];
    const reads: number[] = [];
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
      writes.push(await timed(() => writeToDisk(source, path.join(dir, `copy-${round}.bin`))));
      reads.push(await timed(() => readFromDisk(path.join(dir, `copy-${round}.bin`))));
    }
    return {
      uploadMs: median(uploads),
      diskWriteMs: median(writes),
      downloadMs: median(downloads),
      diskReadMs: median(reads),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
