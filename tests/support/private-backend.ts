// A backend of a test file's own, on a temporary data directory and free ports, for tests that
// kill its parts, load it with thousands of rows, or need settings the shared one does not have.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startBackend, type Backend } from '../../emulator/backend.ts';
import type { Environment } from '../../emulator/config.ts';

export const projectRoot = path.resolve(import.meta.dirname, '../..');

/** Started fresh; `stop()` stops it and deletes its data directory. `tag` names the directory. */
export async function startPrivateBackend(tag: string, env: Environment = {}): Promise<Backend> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `crewboard-${tag}-`));
  // The database runs as its own OS user, which must be able to enter the directory.
  chmodSync(dataDir, 0o755);
  try {
    const backend = await startBackend({
      projectRoot,
      dataDir,
      apiPort: 0,
      dbPort: 0,
      mailPort: 0,
      smtpPort: 0,
      env,
    });
    return {
      ...backend,
      async stop() {
        await backend.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
