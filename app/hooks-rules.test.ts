// The React hooks rules eslint.config.js turns on for the app: each is shown to fire on what it is
// for, and to let correct code through.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it, vi } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

async function hookProblems(source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, 'app/components/x.tsx') });
  return (result?.messages ?? []).flatMap((m) => (m.ruleId?.startsWith('react-hooks/') ? [m.ruleId] : []));
}

// The first lint loads the TypeScript parser and the project's config: seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

describe('React hooks rules', () => {
  it('refuse a hook called conditionally', async () => {
    const source = `import { useState } from 'react';
export function X({ on }: { on: boolean }) {
  if (on) useState(0);
  return null;
}
`;
    expect(await hookProblems(source)).toEqual(['react-hooks/rules-of-hooks']);
  });

  it('refuse an effect that reads a value its dependencies leave out', async () => {
    const source = `import { useEffect } from 'react';
export function X({ title }: { title: string }) {
  useEffect(() => {
    document.title = title;
  }, []);
  return null;
}
`;
    expect(await hookProblems(source)).toEqual(['react-hooks/exhaustive-deps']);
  });

  it('let hooks through when they are called in order and list what they read', async () => {
    const source = `import { useEffect } from 'react';
export function X({ title }: { title: string }) {
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
`;
    expect(await hookProblems(source)).toEqual([]);
  });
});
