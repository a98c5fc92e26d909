// The list view's address: which column it is sorted by and which way (`?sort=due&dir=desc`), and how
// many rows it shows (`?show=300`), beside the board's filters (board.ts), which it reads the same way.
// Pure, for the server and the browser alike; saved views link here with the same plain parameters.

/** The columns the list sorts by, in the order it shows them. */
export const LIST_SORTS = [
  'key',
  'title',
  'status',
  'priority',
  'assignee',
  'due',
  'updated',
  'labels',
] as const;
export type ListSort = (typeof LIST_SORTS)[number];
export type SortDir = 'asc' | 'desc';

export interface Sort {
  sort: ListSort;
  dir: SortDir;
}

/** Without `sort`: by key, lowest first (the order tasks were made in). */
export const DEFAULT_SORT: Sort = { sort: 'key', dir: 'asc' };

/** How many rows the list shows before its "Show more" link, and how many more each time. */
export const LIST_WINDOW = 100;
/** The most rows one address can ask for. */
export const MAX_LIST_WINDOW = 10_000;

/**
 * The sort an address asks for. An unknown column is no sort at all (the default); an unknown
 * direction is the column's first direction, ascending.
 */
export function readSort(params: URLSearchParams): Sort {
  const column = LIST_SORTS.find((s) => s === params.get('sort'));
  if (!column) return DEFAULT_SORT;
  return { sort: column, dir: params.get('dir') === 'desc' ? 'desc' : 'asc' };
}

/** How many rows the address asks for: `?show=N`, rounded into range; malformed is the first window. */
export function readShown(params: URLSearchParams): number {
  const raw = params.get('show') ?? '';
  if (!/^\d{1,6}$/.test(raw)) return LIST_WINDOW;
  return Math.min(MAX_LIST_WINDOW, Math.max(LIST_WINDOW, Number(raw)));
}

/**
 * The address a column's header links to: sorted by it, ascending, or the other way round when it is
 * the sort already. Filters are kept; the window starts over.
 */
export function sortSearch(params: URLSearchParams, column: ListSort, current: Sort): string {
  const next = new URLSearchParams(params);
  next.delete('show');
  const dir: SortDir = current.sort === column && current.dir === 'asc' ? 'desc' : 'asc';
  next.set('sort', column);
  next.set('dir', dir);
  return `?${next.toString()}`;
}

/** The list's address showing `count` rows (everything else kept). */
export function showMoreRows(params: URLSearchParams, count: number): string {
  const next = new URLSearchParams(params);
  next.set('show', String(count));
  return `?${next.toString()}`;
}

/**
 * The board's address from the list's, and back: the filters that are set go along, the list's own sort and
 * window stay behind (the board has none), as do the board's column windows.
 */
export function viewSearch(params: URLSearchParams, filterNames: readonly string[]): string {
  const next = new URLSearchParams();
  // A form sent without JavaScript names every filter, the empty ones too: those are left out.
  for (const [name, value] of params)
    if (filterNames.includes(name) && value !== '') next.append(name, value);
  return next.size > 0 ? `?${next.toString()}` : '';
}

/** The most tasks one bulk edit changes (SPEC §9); `bulk_edit_tasks` refuses more. */
export const MAX_BULK_EDIT = 500;
