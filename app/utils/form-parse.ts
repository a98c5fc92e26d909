// Reads a submitted form into a Conform submission (for the action's reply) with a zod/mini schema,
// checked by the same rule the browser runs (form-check.ts). Conform's own zod adapter coerces
// through classic zod, which would put all of zod into every page's JavaScript.
import { parse, type Submission } from '@conform-to/dom';
import type * as z from 'zod/mini';
import { checkValue } from './form-check.ts';

export function parseWithZod<Schema extends z.ZodMiniType>(
  payload: FormData | URLSearchParams,
  { schema }: { schema: Schema },
): Submission<z.input<Schema>, string[], z.output<Schema>> {
  return parse(payload, { resolve: (value) => checkValue(schema, value) });
}
