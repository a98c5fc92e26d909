// A form's value checked against its zod/mini schema: the one rule both sides run. The action reads
// the form with Conform's parser (form-parse.ts, for its reply); the browser's hook
// (components/schema-form.ts) reads the same flat form itself, without Conform's parser, which is
// 2 kB (gzip) on every page with a form: docs/decisions/005-form-state.md. These forms hold only
// strings, so blank-to-undefined is all the coercion they need.
import * as z from 'zod/mini';

export type FormErrors = Record<string, string[]>;

function blankToUndefined(value: unknown): unknown {
  if (value === '') return undefined;
  if (Array.isArray(value)) return value.map(blankToUndefined);
  if (value !== null && typeof value === 'object' && !(value instanceof Blob)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, blankToUndefined(v)]));
  }
  return value;
}

/** A path as Conform names the field: `a.b[0]`. */
function fieldName(path: PropertyKey[]): string {
  let name = '';
  for (const segment of path) {
    if (typeof segment === 'symbol') continue;
    if (typeof segment === 'number') name += `[${segment}]`;
    else name += name ? `.${segment}` : segment;
  }
  return name;
}

/** The schema's output for a form's value, or its messages under each field's name ('' for the form). */
export function checkValue<Schema extends z.ZodMiniType>(
  schema: Schema,
  value: unknown,
): { value: z.output<Schema>; error?: undefined } | { value?: undefined; error: FormErrors } {
  const result = z.safeParse(schema, blankToUndefined(value));
  if (result.success) return { value: result.data };
  const error: FormErrors = {};
  for (const issue of result.error.issues) (error[fieldName(issue.path)] ??= []).push(issue.message);
  return { error };
}

/** The messages for a form as the browser holds it (flat names; a repeated name is a list), or none. */
export function formErrors(form: FormData, schema: z.ZodMiniType): FormErrors {
  const value: Record<string, unknown> = {};
  for (const [name, entry] of form) {
    const before = value[name];
    value[name] = before === undefined ? entry : Array.isArray(before) ? [...before, entry] : [before, entry];
  }
  return checkValue(schema, value).error ?? {};
}
