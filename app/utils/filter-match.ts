// Whether one task matches a board's filters, by the rules of board_content's `matching` CTE
// (supabase/migrations/20261201600000_board_counts_by_workspace.sql), so the browser can place a
// card a change brings in or takes out as a reload would. Pure, for the server and the browser alike.
import { canBeOverdue, type Filters, type Priority, type StatusCategory } from './board.ts';
import { taskNumberIn } from './search-query.ts';

/**
 * The text filter as board_content reads it: a key of this board (`WEB-12`, `web 12`, `#12`) becomes
 * `#12`, which board_content matches by number; anything else is matched against titles as typed.
 */
export function boardFilterText(q: string | undefined, projectKey: string): string | undefined {
  const number = q === undefined ? null : taskNumberIn(q, projectKey);
  return number === null ? q : `#${number}`;
}

/** What a task's row says that the filters look at. */
export interface FilterableTask {
  number: number;
  title: string;
  priority: Priority;
  /** `YYYY-MM-DD`. */
  due: string | null;
  assignee: string | null;
  /** Its labels' names; undefined when not known (a task's row does not carry them). */
  labels: Array<{ name: string }> | undefined;
}

/** What the filters are read against: the reader, their calendar date, the board's project key. */
export interface FilterScope {
  me: string;
  /** `YYYY-MM-DD`, the date the board was loaded for. */
  today: string;
  projectKey: string;
}

/**
 * Whether `task`, in a column of `category`, matches `filters` — or null when that cannot be told
 * from what is known: a label filter without the task's labels, or letters whose case the database
 * may fold otherwise than the browser (ILIKE lowers with the database's locale; ASCII letters fold
 * alike in every one).
 */
export function matchesFilters(
  filters: Filters,
  task: FilterableTask,
  category: StatusCategory,
  scope: FilterScope,
): boolean | null {
  const { assignee, priority, due, label } = filters;
  if (assignee !== undefined) {
    const wanted = assignee === 'none' ? null : assignee === 'me' ? scope.me : assignee;
    if (task.assignee !== wanted) return false;
  }
  if (priority !== undefined && task.priority !== priority) return false;
  if (due === 'overdue' && !(task.due !== null && task.due < scope.today && canBeOverdue(category)))
    return false;
  if (
    due === 'week' &&
    !(task.due !== null && task.due >= scope.today && task.due <= addDays(scope.today, 6))
  )
    return false;
  const q = boardFilterText(filters.q, scope.projectKey);
  if (q) {
    // `t.number::text = ltrim(q, '#')`, or the title holds q (ILIKE, its wildcards escaped).
    const byNumber = String(task.number) === q.replace(/^#+/, '');
    if (!byNumber) {
      const title = foldedTitle(task.title);
      const text = folded(q);
      if (title === null || text === null) return null;
      if (!title.includes(text)) return false;
    }
  }
  if (label !== undefined) {
    // Any of the labels asked for, by name in any letter case.
    if (task.labels === undefined) return null;
    const wanted = label.map((name) => folded(name.trim()));
    const names = task.labels.map((l) => folded(l.name));
    if (wanted.includes(null) || names.includes(null)) return null;
    if (!names.some((name) => wanted.includes(name))) return false;
  }
  return true;
}

const cased = (char: string) => char.toLowerCase() !== char.toUpperCase();

/** Text in lower case as any database locale lowers it, or null when it holds a letter outside ASCII. */
function folded(text: string): string | null {
  for (const char of text) if (char > '\x7f' && cased(char)) return null;
  return text.toLowerCase();
}

/**
 * A title in lower case, letter by letter as lower() does, for text that `folded` accepts; null when a
 * letter outside ASCII lowers to something such text could hold (`K`, the Kelvin sign, to `k`). Any
 * other such letter lowers to letters of its own kind in every locale, which that text cannot match.
 */
function foldedTitle(title: string): string | null {
  let lower = '';
  for (const char of title) {
    const low = char.toLowerCase();
    if (char > '\x7f' && cased(char) && [...low].some((c) => c <= '\x7f' || !cased(c))) return null;
    lower += low;
  }
  return lower;
}

/** `date + days` of SQL, for `YYYY-MM-DD` dates. */
function addDays(date: string, days: number): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}
