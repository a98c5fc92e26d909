import { describe, expect, it } from 'vitest';
import { classifyDataError, dataErrorResponse, violatedConstraint } from './data-errors.server.ts';

// Shapes as supabase-js hands them over: postgrest-js errors carry `code` (a SQLSTATE or PGRST…),
// storage-js errors carry the HTTP `statusCode` storage answered with.
const postgrest = (code: string, message = 'x') => ({ code, message, details: null, hint: null });
const storage = (statusCode: string) => ({ __isStorageError: true, statusCode, message: 'x' });

describe('classifyDataError', () => {
  it.each([
    ['42501', 'forbidden', 403],
    ['23505', 'conflict', 409],
    ['40001', 'conflict', 409],
    ['23514', 'invalid', 400],
    ['23503', 'invalid', 400],
    ['23502', 'invalid', 400],
    ['22P02', 'invalid', 400],
    ['22001', 'invalid', 400],
    ['22021', 'invalid', 400],
    ['P0001', 'invalid', 400],
    ['P0002', 'not_found', 404],
    ['PT404', 'not_found', 404],
    ['PT403', 'forbidden', 403],
    ['PT409', 'conflict', 409],
    ['PGRST116', 'not_found', 404],
    ['PGRST204', 'invalid', 400],
    ['PGRST100', 'invalid', 400],
    ['PGRST000', 'unavailable', 503],
    ['PGRST001', 'unavailable', 503],
    ['57P01', 'unavailable', 503],
    ['08006', 'unavailable', 503],
    ['53300', 'unavailable', 503],
    ['XX000', 'unavailable', 503],
    ['', 'unavailable', 503],
  ])('PostgREST code %j is %s (%i)', (code, kind, status) => {
    expect(classifyDataError(postgrest(code))).toMatchObject({ kind, status });
  });

  it.each([
    ['403', 'forbidden'],
    ['401', 'forbidden'],
    ['404', 'not_found'],
    ['409', 'conflict'],
    ['413', 'too_large'],
    ['400', 'invalid'],
    ['500', 'unavailable'],
    ['503', 'unavailable'],
  ])('storage status %s is %s', (statusCode, kind) => {
    expect(classifyDataError(storage(statusCode)).kind).toBe(kind);
  });

  it('says the server is unavailable only for an outage', () => {
    const outageMessage = "We can't reach the server right now. Nothing was saved; try again in a moment.";
    expect(classifyDataError(postgrest('22P02')).message).not.toBe(outageMessage);
    expect(classifyDataError(postgrest('23514')).message).not.toBe(outageMessage);
    expect(classifyDataError(postgrest('', 'TypeError: fetch failed')).message).toBe(outageMessage);
  });

  it('makes a Response a route can throw, with a message for the error boundary', async () => {
    const response = dataErrorResponse(postgrest('42501'), { forbidden: "We couldn't find that page." });
    expect(response.status).toBe(403);
    expect(await response.text()).toBe("We couldn't find that page.");
  });
});

describe('violatedConstraint', () => {
  it('names the constraint of a unique, check or foreign-key violation', () => {
    const unique = postgrest(
      '23505',
      'duplicate key value violates unique constraint "labels_workspace_name_key"',
    );
    expect(violatedConstraint(unique)).toBe('labels_workspace_name_key');
    const check = postgrest(
      '23514',
      'new row for relation "labels" violates check constraint "labels_name_length"',
    );
    expect(violatedConstraint(check)).toBe('labels_name_length');
  });

  it('reads a rule a trigger names in its detail', () => {
    const limit = {
      ...postgrest('23514', 'A workspace can have at most 200 labels.'),
      details: 'Failing row violates constraint "labels_per_workspace".',
    };
    expect(violatedConstraint(limit)).toBe('labels_per_workspace');
  });

  it('is null for anything but an integrity error', () => {
    expect(violatedConstraint(postgrest('42501', 'violates row-level security policy "x"'))).toBeNull();
    expect(violatedConstraint(postgrest('23514', 'no name here'))).toBeNull();
    expect(violatedConstraint(null)).toBeNull();
  });
});
