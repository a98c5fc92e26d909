import { describe, expect, it } from 'vitest';
import { parseWithZod } from './form-parse.ts';
import { LoginSchema } from './schemas.ts';
import { NewTaskSchema } from './workspace-schemas.ts';

const form = (entries: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(entries)) data.set(k, v);
  return data;
};

describe('parseWithZod (zod/mini, no classic zod in the browser)', () => {
  it('gives the parsed value of a valid form', () => {
    const submission = parseWithZod(form({ email: ' ada@example.com ', password: 'secret-123' }), {
      schema: LoginSchema,
    });
    expect(submission.status).toBe('success');
    expect(submission.status === 'success' && submission.value.email).toBe('ada@example.com');
  });

  it('treats a blank field as missing and puts each message under its field', () => {
    const submission = parseWithZod(form({ title: '', status: 'todo' }), { schema: NewTaskSchema });
    expect(submission.status).toBe('error');
    expect(submission.status === 'error' && submission.error).toEqual({ title: ['Enter a title.'] });
    // The reply keeps what was typed for the page to show again (blanks stay blank), as Conform's own
    // adapter does.
    expect(submission.reply()).toMatchObject({
      initialValue: { status: 'todo' },
      fields: ['title', 'status'],
    });
  });
});
