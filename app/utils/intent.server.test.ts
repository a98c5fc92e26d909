import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { readIntent } from './intent.server.ts';
import { Uuid } from './uuid.ts';

const Intent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('save') }),
  z.object({ intent: z.literal('delete'), id: Uuid }),
]);

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

const thrownStatus = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof Response ? error.status : 'not a Response';
  }
  return 'nothing thrown';
};

describe('readIntent', () => {
  it('reads an intent with its fields, and leaves the rest of the form to its own schema', () => {
    expect(readIntent(form({ intent: 'save', title: 'x' }), Intent)).toEqual({ intent: 'save' });
    const id = '6f1c2b1e-8a4b-4c7e-9d2f-0a1b2c3d4e5f';
    expect(readIntent(form({ intent: 'delete', id }), Intent)).toEqual({ intent: 'delete', id });
  });

  it('answers an intent no form sends with 400, and a malformed id with 404', () => {
    expect(thrownStatus(() => readIntent(form({ intent: 'drop' }), Intent))).toBe(400);
    expect(thrownStatus(() => readIntent(form({}), Intent))).toBe(400);
    expect(thrownStatus(() => readIntent(form({ intent: 'delete', id: 'nope' }), Intent))).toBe(404);
  });
});
