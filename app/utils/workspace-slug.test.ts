import { describe, expect, it } from 'vitest';
import { slugFromName, WorkspaceSchema } from './workspace-schemas.ts';

describe('slugFromName', () => {
  it('makes an address the workspace form accepts', () => {
    expect(slugFromName('Café Crew!')).toBe('cafe-crew');
    expect(slugFromName('  Acme   Rockets 2  ')).toBe('acme-rockets-2');
    expect(slugFromName('--Hello__World--')).toBe('hello-world');
    const long = slugFromName('a '.repeat(40));
    expect(long.length).toBeLessThanOrEqual(40);
    expect(long.endsWith('-')).toBe(false);
    expect(WorkspaceSchema.safeParse({ name: 'x', slug: long }).success).toBe(true);
  });
});
