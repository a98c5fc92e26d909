// A saved view's parameters and address: what is kept of a board's or a list's address (its filters
// and sort), and how it becomes one again. Pure, for the server and the browser alike.
import { FILTER_PARAMS, readFilters } from './board.ts';
import { LIST_SORTS } from './list.ts';
import { projectPath } from './projects.ts';

export type ViewKind = 'board' | 'list';

/** The list's sortable columns (`?sort=due&dir=asc`): a view keeps what the list sorts by. */
export const VIEW_SORTS = LIST_SORTS;
export const VIEW_DIRECTIONS = ['asc', 'desc'] as const;

/** A view's parameters by name, as `public.saved_views.query` keeps them: a string, or labels' names. */
export type ViewQuery = Partial<Record<(typeof FILTER_PARAMS)[number] | 'sort' | 'dir', string | string[]>>;

const VIEW_PARAMS = new Set<string>([...FILTER_PARAMS, 'sort', 'dir']);

/** The view an address shows: its known filters and sort, in their checked form; anything else dropped. */
export function readViewQuery(params: URLSearchParams): ViewQuery {
  const query: ViewQuery = { ...readFilters(params) };
  const sort = VIEW_SORTS.find((s) => s === params.get('sort'));
  if (sort) {
    query.sort = sort;
    query.dir = VIEW_DIRECTIONS.find((d) => d === params.get('dir')) ?? 'asc';
  }
  return query;
}

/** Whether an address says a view's parameters itself (even blank, as a form without script sends them). */
export function hasViewParams(params: URLSearchParams): boolean {
  return [...params.keys()].some((name) => VIEW_PARAMS.has(name));
}

/** A stored query (JSON) as GET parameters, checked as an address's are. */
export function viewParams(query: unknown): URLSearchParams {
  const params = new URLSearchParams();
  if (typeof query !== 'object' || query === null) return params;
  for (const [name, value] of Object.entries(query)) {
    if (!VIEW_PARAMS.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value])
      if (typeof one === 'string') params.append(name, one);
  }
  return new URLSearchParams(
    Object.entries(readViewQuery(params)).flatMap(([name, value]) =>
      (Array.isArray(value) ? value : [value]).map((one) => [name, one]),
    ),
  );
}

/**
 * A saved view's address, with its parameters (the page redirects a bare address to them). A list
 * view's says `kind=list` too, so its page starts the list's backend call without reading the view
 * first (an address that says the wrong kind is sent to the right one).
 */
export function viewPath(
  workspaceSlug: string,
  projectKey: string,
  viewId: string,
  query?: unknown,
  kind: ViewKind = 'board',
): string {
  const params = query === undefined ? new URLSearchParams() : viewParams(query);
  if (kind === 'list') params.set('kind', 'list');
  const search = params.toString();
  return `${projectPath(workspaceSlug, projectKey)}/views/${viewId}${search ? `?${search}` : ''}`;
}

/** The kind of page a view's address says it is (see viewPath). */
export const addressedKind = (params: URLSearchParams): ViewKind =>
  params.get('kind') === 'list' ? 'list' : 'board';
