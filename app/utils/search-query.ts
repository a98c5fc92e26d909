// What a person types into search (the search page, the command palette), read into the parts
// `public.search_tasks` takes as parameters: words, a task key, filters. Nothing typed reaches SQL
// text; this only decides which parameter a piece goes to, and says what it ignored. Pure, for the
// server and the browser alike.

/** Longer searches are refused with a message, not cut. */
export const MAX_SEARCH_LENGTH = 200;
/** search_tasks reads the first 12 words. */
const MAX_WORDS = 12;

export const SEARCH_FILTERS = ['assignee', 'status', 'is', 'label', 'project'] as const;
type FilterName = (typeof SEARCH_FILTERS)[number];

export interface SearchFilters {
  /** `me`, `none`, or the beginning of a member's name. */
  assignee?: string;
  status?: string;
  state?: 'open' | 'done';
  label?: string;
  /** A project's key. */
  project?: string;
}

/** A task named by its key: `WEB-12`, `web 12`, or `#12` (project null: any, unless `project:`). */
export interface TaskKey {
  project: string | null;
  number: number;
}

export interface ParsedSearch {
  words: string[];
  key: TaskKey | null;
  filters: SearchFilters;
  /** What was ignored, one sentence each. */
  notes: string[];
  /** Why nothing is searched at all (too long); null when the search can run. */
  problem: string | null;
}

const KEY_WORD = /^[A-Za-z][A-Za-z0-9]{1,9}$/;
const NUMBER = /^\d{1,9}$/;
const HYPHENATED_KEY = /^([A-Za-z][A-Za-z0-9]{1,9})-(\d{1,9})$/;
const HASH_NUMBER = /^#(\d{1,9})$/;
// C0 and C1 controls, DEL included: read as spaces.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// A token: an optional `name:`, then a quoted value or a run of non-spaces.
const TOKEN = /(?:([A-Za-z]+):)?(?:"([^"]*)"|(\S+))/g;

/** Whether nothing would be searched: no words, no key, no filter. */
export function isEmptySearch(search: ParsedSearch): boolean {
  return search.words.length === 0 && search.key === null && Object.keys(search.filters).length === 0;
}

export function parseSearch(raw: string): ParsedSearch {
  const parsed: ParsedSearch = { words: [], key: null, filters: {}, notes: [], problem: null };
  if (raw.length > MAX_SEARCH_LENGTH) {
    parsed.problem = `A search can be at most ${MAX_SEARCH_LENGTH} characters long; this one has ${raw.length}.`;
    return parsed;
  }
  let text = raw.replace(CONTROLS, ' ');
  if ((text.match(/"/g) ?? []).length % 2 === 1) {
    const last = text.lastIndexOf('"');
    text = text.slice(0, last) + text.slice(last + 1);
    parsed.notes.push('A quotation mark without its pair was ignored.');
  }
  const plain: string[] = [];
  for (const [, name, quoted, bare] of text.matchAll(TOKEN)) {
    const value = (quoted ?? bare ?? '').trim();
    if (name === undefined) {
      if (value !== '') plain.push(value);
      continue;
    }
    const filter = name.toLowerCase();
    if (!isFilterName(filter)) {
      parsed.notes.push(
        `“${name}:” is not a filter, so it was ignored. Filters: ${SEARCH_FILTERS.map((f) => `${f}:`).join(', ')}.`,
      );
      continue;
    }
    if (value === '') {
      parsed.notes.push(`“${filter}:” needs a value, so it was ignored.`);
      continue;
    }
    applyFilter(parsed, filter, value);
  }
  parsed.key = keyAmong(plain, parsed.filters.project ?? null);
  // `#12` names a task and nothing else; `WEB-12` and `web 12` are words too (a task may mention one).
  parsed.words = plain.filter((word) => !HASH_NUMBER.test(word)).slice(0, MAX_WORDS);
  return parsed;
}

function isFilterName(name: string): name is FilterName {
  return (SEARCH_FILTERS as readonly string[]).includes(name);
}

function applyFilter(parsed: ParsedSearch, filter: FilterName, value: string): void {
  const lower = value.toLowerCase();
  switch (filter) {
    case 'assignee':
      parsed.filters.assignee = ['none', 'nobody', 'unassigned'].includes(lower)
        ? 'none'
        : lower === 'me'
          ? 'me'
          : value;
      return;
    case 'is':
      if (lower === 'open' || lower === 'done') parsed.filters.state = lower;
      else parsed.notes.push(`“is:${value}” was ignored: “is:” takes open or done.`);
      return;
    case 'project':
      parsed.filters.project = value.toUpperCase();
      return;
    default:
      parsed.filters[filter] = value;
  }
}

/** The first task key among the words: `WEB-12`, `web 12`, or `#12` (in `project`, if given). */
function keyAmong(words: string[], project: string | null): TaskKey | null {
  for (const [i, word] of words.entries()) {
    const hash = HASH_NUMBER.exec(word);
    if (hash) return { project, number: Number(hash[1]) };
    const hyphenated = HYPHENATED_KEY.exec(word);
    if (hyphenated) return { project: hyphenated[1]!.toUpperCase(), number: Number(hyphenated[2]) };
    const next = words[i + 1];
    if (KEY_WORD.test(word) && next !== undefined && NUMBER.test(next))
      return { project: word.toUpperCase(), number: Number(next) };
  }
  return null;
}

/**
 * The board's text filter: the number of the task `text` names in project `projectKey` — `WEB-12`,
 * `web-12`, `web 12`, `#12` — or null when it names none there.
 */
export function taskNumberIn(text: string, projectKey: string): number | null {
  const match = /^\s*(?:#|([A-Za-z][A-Za-z0-9]{1,9})\s*[-\s]\s*)(\d{1,9})\s*$/.exec(text);
  if (!match) return null;
  if (match[1] !== undefined && match[1].toUpperCase() !== projectKey.toUpperCase()) return null;
  return Number(match[2]);
}

/** A piece of marked text: `marked` pieces are where the search matched. */
export interface MarkedPiece {
  text: string;
  marked: boolean;
}

/**
 * search_tasks marks each match between U+0001 and U+0002 (characters it removed from the text
 * first). The pieces are plain strings: the page renders them as text and <mark> elements, so
 * nothing in a task's text is ever read as HTML.
 */
export function markedPieces(value: string): MarkedPiece[] {
  const pieces: MarkedPiece[] = [];
  for (const [i, part] of value.split('\u0001').entries()) {
    const end = part.indexOf('\u0002');
    // Before the first mark, and any piece without a closing mark, is plain text.
    if (i === 0 || end === -1) {
      if (part !== '') pieces.push({ text: part.replaceAll('\u0002', ''), marked: false });
      continue;
    }
    if (end > 0) pieces.push({ text: part.slice(0, end), marked: true });
    const rest = part.slice(end + 1).replaceAll('\u0002', '');
    if (rest !== '') pieces.push({ text: rest, marked: false });
  }
  return pieces;
}

/** A task found, as the search page and the command palette show it. */
export interface SearchResult {
  id: string;
  /** `WEB-12`. */
  ref: string;
  href: string;
  title: MarkedPiece[];
  project: string;
  status: string;
  /** Where it matched: the key, the title, the description, a comment, or the filters alone. */
  matched: string;
  /** The description's or the comment's words around the match. */
  snippet: MarkedPiece[] | null;
}

export interface SearchAnswer {
  q: string;
  results: SearchResult[];
  notes: string[];
  problem: string | null;
}

/** The parameters of `public.search_tasks` for a parsed search. */
export function searchParameters(workspaceSlug: string, search: ParsedSearch, maxResults: number) {
  return {
    workspace_slug: workspaceSlug,
    words: search.words,
    key_project: search.key?.project ?? undefined,
    key_number: search.key?.number ?? undefined,
    assignee: search.filters.assignee,
    status: search.filters.status,
    state: search.filters.state,
    label: search.filters.label,
    project: search.filters.project,
    max_results: maxResults,
  };
}
