// Which of a page's forms was sent. A route with several forms names each in an `intent` field
// (STYLE.md) and describes them in one zod discriminated union on `intent`, each with the hidden
// fields its form carries (the ids it acts on); the action then switches on a typed value.
import type * as z from 'zod/mini';
import { badRequest, notFound } from './data-errors.server.ts';

export function readIntent<Schema extends z.ZodMiniType>(
  formData: FormData,
  schema: Schema,
): z.output<Schema> {
  const fields = Object.fromEntries([...formData].filter(([, value]) => typeof value === 'string'));
  const result = schema.safeParse(fields);
  if (result.success) return result.data;
  // An intent no form of the page sends is a bad request; a known one whose id is malformed names no
  // record, and gets the 404 of a record that is not there.
  throw result.error.issues.some((issue) => issue.path[0] === 'intent') ? badRequest() : notFound();
}
