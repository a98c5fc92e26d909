// supabase/schema is the database as supabase/migrations leave it: written again here, into a
// temporary directory, from a database the migrations alone have made on the test backend's server,
// and compared file by file. A migration added or changed without `npm run db:schema` fails here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSchema, schemaOfMigrations, writeSchema } from '../../scripts/schema/migrated.ts';
import { dbUrl } from '../support/db.ts';
import { projectRoot } from '../support/private-backend.ts';

describe('supabase/schema', () => {
  it('is what the migrations make (`npm run db:schema` writes it)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'crewboard-schema-'));
    try {
      writeSchema(dir, await schemaOfMigrations(dbUrl('superuser'), projectRoot));
      const fresh = readSchema(dir);
      const committed = readSchema(path.join(projectRoot, 'supabase', 'schema'));
      const stale = [...new Set([...fresh.keys(), ...committed.keys()])]
        .sort()
        .filter((file) => fresh.get(file) !== committed.get(file))
        .map((file) =>
          !committed.has(file) ? `${file} (missing)` : !fresh.has(file) ? `${file} (no longer made)` : file,
        );
      expect(fresh.size, 'the migrations made no schema at all').toBeGreaterThan(10);
      expect(stale, 'stale files in supabase/schema: run `npm run db:schema`').toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
