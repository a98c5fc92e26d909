// The walls between the parts, as eslint.config.js keeps them: each rule is shown to
// refuse what it is for and to let through what is allowed; and no module of the backend imports
// one that imports it back (the realtime hub lived in such a cycle between server.ts and socket.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it, vi } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

async function restricted(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

// The first lint loads the TypeScript parser and the project's config: seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

describe('import walls', () => {
  it('keep the app from importing the local backend', async () => {
    expect(
      await restricted(
        'app/utils/x.server.ts',
        "import { freePort } from '../../emulator/lib/net.ts';\nfreePort();\n",
      ),
    ).toHaveLength(1);
    expect(
      await restricted(
        'app/routes/x.tsx',
        "import { startBackend } from '~/../emulator/backend.ts';\nstartBackend();\n",
      ),
    ).toHaveLength(1);
    expect(
      await restricted(
        'app/routes/x.tsx',
        "import { signedIn } from '~/utils/session/signed-in.server.ts';\nsignedIn();\n",
      ),
    ).toEqual([]);
  });

  it('keep server-only modules out of code the browser bundle holds', async () => {
    const source = "import { signedIn } from '~/utils/session/signed-in.server.ts';\nsignedIn();\n";
    expect(await restricted('app/components/x.tsx', source)).toHaveLength(1);
    expect(await restricted('app/entry.client.tsx', source)).toHaveLength(1);
    expect(await restricted('app/utils/board.ts', source)).toHaveLength(1);
    expect(await restricted('app/utils/other.server.ts', source)).toEqual([]);
  });

  it('keep each backend service out of the others, sharing only emulator/lib', async () => {
    expect(
      await restricted(
        'emulator/auth/x.ts',
        "import { startMailbox } from '../mail/mailbox.ts';\nstartMailbox();\n",
      ),
    ).toHaveLength(1);
    expect(
      await restricted(
        'emulator/storage/x.ts',
        "import { startBackend } from '../backend.ts';\nstartBackend();\n",
      ),
    ).toHaveLength(1);
    expect(
      await restricted('emulator/mail/x.ts', "import { readBody } from '../lib/http.ts';\nreadBody();\n"),
    ).toEqual([]);
    expect(
      await restricted('emulator/auth/y.ts', "import { signup } from './signup.ts';\nsignup();\n"),
    ).toEqual([]);
  });
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'runtime' ? [] : sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('the backend modules', () => {
  it('import no module that imports them back', () => {
    const files = sources(path.join(root, 'emulator'));
    const imports = new Map<string, string[]>();
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const targets = [...text.matchAll(/^(?:import|export)[^'"]*from '(\.{1,2}\/[^']+)'/gm)].map((m) =>
        path.resolve(path.dirname(file), m[1] ?? ''),
      );
      imports.set(file, targets);
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push(
          [...trail.slice(trail.indexOf(file)), file].map((f) => path.relative(root, f)).join(' → '),
        );
        return;
      }
      state.set(file, 'open');
      for (const target of imports.get(file) ?? []) visit(target, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
