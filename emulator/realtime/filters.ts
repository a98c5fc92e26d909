// postgres_changes parameters, read as realtime reads them
// (supabase/realtime lib/extensions/postgres_cdc_rls/subscriptions.ex `parse_subscription_params`):
// a missing schema is `public`, a missing table `*`, the filter is `column=op.value` terms joined by
// top-level commas (ANDed), any operator negatable with `not.`.

export const FILTER_OPS = [
  'eq',
  'neq',
  'lt',
  'lte',
  'gt',
  'gte',
  'in',
  'like',
  'ilike',
  'is',
  'match',
  'imatch',
  'isdistinct',
] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

export interface Filter {
  column: string;
  op: FilterOp;
  /** The literal compared with, as SQL text; `in` lists are Postgres array literals `{a,b}`. */
  value: string;
  negate: boolean;
}

export type Action = '*' | 'INSERT' | 'UPDATE' | 'DELETE';

export interface SubscriptionParams {
  action: Action;
  schema: string;
  table: string;
  filters: Filter[];
  /** Columns asked for with `select` (the primary key always comes along); null means all. */
  select: string[] | null;
}

export type Parsed = { ok: true; params: SubscriptionParams } | { ok: false; error: string };

function actionOf(event: unknown): Action {
  if (typeof event !== 'string' || event === '*') return '*';
  const upper = event.toUpperCase();
  return upper === 'INSERT' || upper === 'UPDATE' || upper === 'DELETE' ? upper : '*';
}

/** Splits on commas outside parentheses and double quotes, as realtime's `split_top_level`. */
function splitTopLevel(filter: string): string[] {
  const parts: string[] = [];
  let current = '';
  let depth = 0;
  let quoted = false;
  let prev = '';
  for (let i = 0; i < filter.length; i++) {
    const char = filter[i] ?? '';
    if (quoted) {
      if (char === '\\' && i + 1 < filter.length) {
        current += char + (filter[i + 1] ?? '');
        prev = filter[i + 1] ?? '';
        i++;
        continue;
      }
      if (char === '"') quoted = false;
      current += char;
      prev = char;
      continue;
    }
    if (char === '"' && (prev === '.' || prev === '(' || prev === ',')) quoted = true;
    else if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
      prev = '';
      continue;
    }
    current += char;
    prev = char;
  }
  parts.push(current);
  return parts;
}

function unquote(value: string): string {
  if (!value.startsWith('"')) return value;
  let out = '';
  for (let i = 1; i < value.length; i++) {
    const char = value[i];
    if (char === '\\' && i + 1 < value.length) {
      out += value[i + 1];
      i++;
    } else if (char === '"') {
      return i === value.length - 1 ? out : value;
    } else {
      out += char;
    }
  }
  return value;
}

function parseTerm(segment: string): { ok: true; filter: Filter } | { ok: false; error: string } {
  const trimmed = segment.trim();
  if (trimmed === '')
    return { ok: false, error: 'filter must not contain empty segments (check for extra commas)' };
  const eq = trimmed.indexOf('=');
  if (eq === -1) return { ok: false, error: `["${trimmed}"]` };
  const column = trimmed.slice(0, eq);
  let rest = trimmed.slice(eq + 1);
  const negate = rest.startsWith('not.');
  if (negate) rest = rest.slice(4);
  const dot = rest.indexOf('.');
  if (dot === -1) return { ok: false, error: `["${column}", "${rest}"]` };
  const op = rest.slice(0, dot);
  const value = rest.slice(dot + 1);
  const known = FILTER_OPS.find((candidate) => candidate === op);
  if (!known) return { ok: false, error: `["${op}", "${value}"]` };
  if (known === 'in') {
    if (value.length < 2 || !value.startsWith('(') || !value.endsWith(')')) {
      return { ok: false, error: '`in` filter value must be wrapped by parentheses' };
    }
    return { ok: true, filter: { column, op: known, value: `{${value.slice(1, -1)}}`, negate } };
  }
  return { ok: true, filter: { column, op: known, value: unquote(value), negate } };
}

export function parseFilter(filter: string): { ok: true; filters: Filter[] } | { ok: false; error: string } {
  const trimmed = filter.trim();
  if (trimmed === '') return { ok: true, filters: [] };
  const filters: Filter[] = [];
  for (const segment of splitTopLevel(trimmed)) {
    const term = parseTerm(segment);
    if (!term.ok) return { ok: false, error: `Error parsing \`filter\` params: ${term.error}` };
    filters.push(term.filter);
  }
  return { ok: true, filters };
}

export function parseSubscriptionParams(params: Record<string, unknown>): Parsed {
  const action = actionOf(params.event);
  let select: string[] | null = null;
  if (typeof params.select === 'string') {
    return {
      ok: false,
      error:
        'Error parsing `select` params: expected a list of column name strings, e.g. select: ["col1", "col2"]',
    };
  }
  if (Array.isArray(params.select)) {
    const names = params.select.filter((c): c is string => typeof c === 'string');
    select = names.length > 0 ? names : null;
  }
  const has = (key: string) => params[key] !== undefined && params[key] !== null;
  const { schema, table, filter } = params;
  let result: SubscriptionParams | undefined;
  if (typeof schema === 'string' && typeof table === 'string' && typeof filter === 'string') {
    const parsed = parseFilter(filter);
    if (!parsed.ok) return parsed;
    result = { action, schema, table, filters: parsed.filters, select };
  } else if (typeof schema === 'string' && typeof table === 'string' && !has('filter')) {
    result = { action, schema, table, filters: [], select };
  } else if (typeof schema === 'string' && !has('table') && !has('filter')) {
    result = { action, schema, table: '*', filters: [], select };
  } else if (typeof table === 'string' && !has('schema') && !has('filter')) {
    result = { action, schema: 'public', table, filters: [], select };
  }
  if (!result) {
    return {
      ok: false,
      error: `No subscription params provided. Please provide at least a \`schema\` or \`table\` to subscribe to: ${JSON.stringify(params)}`,
    };
  }
  if (result.select && (result.schema === '*' || result.table === '*')) {
    return {
      ok: false,
      error:
        'Column selection is not supported for wildcard subscriptions. Provide an explicit schema and table name.',
    };
  }
  return { ok: true, params: result };
}

/** A 27-bit integer id for a binding's params, stable for equal params (realtime uses `:erlang.phash2`). */
export function bindingId(params: Record<string, unknown>): number {
  const canonical = JSON.stringify(
    Object.keys(params)
      .sort()
      .map((key) => [key, params[key]]),
  );
  // FNV-1a, folded into phash2's range 0..2^27-1.
  let hash = 0x811c9dc5;
  for (let i = 0; i < canonical.length; i++) {
    hash ^= canonical.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash & 0x7ffffff;
}
