import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import * as accountSchemas from './account-schemas.ts';
import { formErrors } from './form-check.ts';
import { parseWithZod } from './form-parse.ts';
import * as publicSchemas from './schemas.ts';
import * as workspaceSchemas from './workspace-schemas.ts';

const { ChangeEmailSchema, DisplayNameSchema } = accountSchemas;
const { LoginSchema, NewPasswordSchema } = publicSchemas;
const { CommentSchema, NewTaskSchema, ProjectSchema, WorkspaceSchema } = workspaceSchemas;

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
    const todo = '00000000-0000-4000-8000-00000000000a';
    const submission = parseWithZod(form({ title: '', status: todo }), { schema: NewTaskSchema });
    expect(submission.status).toBe('error');
    expect(submission.status === 'error' && submission.error).toEqual({ title: ['Enter a title.'] });
    // The reply keeps what was typed for the page to show again (blanks stay blank), as Conform's own
    // adapter does.
    expect(submission.reply()).toMatchObject({
      initialValue: { status: todo },
      fields: ['title', 'status'],
    });
  });
});

describe('control characters', () => {
  it.each([
    ['a NUL', 'Fix\u0000 the build'],
    ['a bell', 'Fix\u0007 the build'],
    ['an escape', 'Fix\u001b[31m the build'],
    ['a DEL', 'Fix\u007f the build'],
  ])('refuse %s in a task title, next to the field, keeping what was typed', (_kind, title) => {
    const form = new FormData();
    form.set('title', title);
    form.set('status', '00000000-0000-4000-8000-00000000000a');
    const submission = parseWithZod(form, { schema: NewTaskSchema });
    expect(submission.status).toBe('error');
    const reply = submission.reply();
    expect(reply.error?.title).toEqual(['Remove the control characters (such as NUL) from this field.']);
    expect(reply.initialValue?.title).toBe(title);
  });

  it('keep tabs and line breaks in a description', () => {
    const form = new FormData();
    form.set('body', 'line one\r\n\tline two');
    expect(parseWithZod(form, { schema: CommentSchema }).status).toBe('success');
  });

  it.each([
    ['password', LoginSchema, { email: 'a@example.com', password: 'secret\u0000' }],
    ['email', LoginSchema, { email: 'a\u0000@example.com', password: 'secret' }],
    ['password', NewPasswordSchema, { password: 'long enough\u0000' }],
    ['displayName', DisplayNameSchema, { displayName: 'Ada\u0000' }],
    ['name', WorkspaceSchema, { name: 'Acme\u0000', slug: 'acme' }],
    ['name', ProjectSchema, { name: 'Web\u0000' }],
    ['body', CommentSchema, { body: 'Hi\u0000' }],
    ['currentPassword', ChangeEmailSchema, { email: 'b@example.com', currentPassword: 'x\u0000' }],
  ])('refuse a NUL in %s', (field, schema, values) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(values)) form.set(k, v);
    const submission = parseWithZod(form, { schema });
    expect(submission.status).toBe('error');
    expect(Object.keys(submission.reply().error ?? {})).toContain(field);
  });
});

describe('the browser’s check (form-check.ts) and the action’s parser (Conform’s)', () => {
  const isFormSchema = (value: unknown): value is z.ZodMiniObject =>
    typeof value === 'object' && value !== null && 'shape' in value;
  const schemas = Object.entries({ ...publicSchemas, ...accountSchemas, ...workspaceSchemas }).flatMap(
    ([name, value]) => (name.endsWith('Schema') && isFormSchema(value) ? [[name, value] as const] : []),
  );
  const values = ['', 'x', 'ada@example.com', ' Ada ', 'a'.repeat(300), 'todo', randomUUID(), 'bad\u0000'];

  it('cover every form schema', () => {
    expect(schemas.length).toBeGreaterThanOrEqual(27);
  });

  it.each(schemas)('find the same errors in %s, whatever its fields hold', (_name, schema) => {
    const fields = Object.keys(schema.shape);
    const forms: FormData[] = [new FormData()];
    for (const value of values) {
      const every = new FormData();
      for (const field of fields) every.set(field, value);
      forms.push(every);
      for (const field of fields) {
        const one = new FormData();
        one.set(field, value);
        forms.push(one);
        const twice = new FormData();
        twice.append(field, value);
        twice.append(field, value);
        forms.push(twice);
      }
    }
    for (const form of forms) {
      const submission = parseWithZod(form, { schema });
      expect(formErrors(form, schema), JSON.stringify([...form])).toEqual(
        submission.status === 'error' ? submission.error : {},
      );
    }
  });
});

describe('the one-time key of a create form', () => {
  it('is kept when it is a UUID, and dropped (not refused) when it is anything else', () => {
    const key = randomUUID();
    for (const [sent, kept] of [
      [key, key],
      ['not-a-uuid', undefined],
      ['', undefined],
    ]) {
      const form = new FormData();
      form.set('name', 'Web');
      form.set('key', sent ?? '');
      const submission = parseWithZod(form, { schema: ProjectSchema });
      expect(submission.status).toBe('success');
      expect(submission.status === 'success' && submission.value.key).toBe(kept);
    }
  });
});
