// Reads a submitted form into a Conform submission with a zod/mini schema, the same in the browser
// and on the server. Conform's own zod adapter coerces through classic zod, which would put all of
// zod into every page's JavaScript; these forms hold only strings, so blank-to-undefined is all the
// coercion they need.
import { formatPaths, parse, type Submission } from '@conform-to/dom';
import * as z from 'zod/mini';

function blankToUndefined(value: unknown): unknown {
  if (value === '') return undefined;
  if (Array.isArray(value)) return value.map(blankToUndefined);
  if (value !== null && typeof value === 'object' && !(value instanceof Blob)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, blankToUndefined(v)]));
  }
  return value;
}

export function parseWithZod<Schema extends z.ZodMiniType>(
  payload: FormData | URLSearchParams,
  { schema }: { schema: Schema },
): Submission<z.input<Schema>, string[], z.output<Schema>> {
  return parse(payload, {
    resolve(value) {
      const result = z.safeParse(schema, blankToUndefined(value));
      if (result.success) return { value: result.data };
      const error: Record<string, string[]> = {};
      for (const issue of result.error.issues) {
        const name = formatPaths(issue.path.filter((p) => typeof p !== 'symbol'));
        (error[name] ??= []).push(issue.message);
      }
      return { error };
    },
  });
}
