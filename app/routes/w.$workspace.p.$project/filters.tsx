import { Form, Link, useSearchParams, useSubmit } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { LabelChip, type ChipLabel } from '~/components/label-chip.tsx';
import { clearFiltersSearch, FILTER_PARAMS, MAX_FILTER_TEXT, type Filters } from '~/utils/board.ts';
import { NEW_TASK_PARAM } from '~/utils/projects.ts';
import { TASK_PRIORITIES } from '~/utils/workspace-schemas.ts';

// The filters the form sets, and the new-task form's focus, which a filter does not keep.
const FILTER_NAMES = new Set<string>([...FILTER_PARAMS, NEW_TASK_PARAM]);
/** app/tailwind.css: the filters are on every board load, so their look is one short class. */
const control = 'filter-control';

/**
 * The board's filters: a GET form, so they work without JavaScript and the address can be shared.
 * With JavaScript a change applies at once (the text after a pause in typing), without a page load.
 * The columns' windows (`?todo=100`) are kept either way.
 */
export function BoardFilters({
  filters,
  people,
  labels,
  me,
  active,
}: {
  filters: Filters;
  people: Array<{ id: string; name: string }>;
  /** The workspace's labels, by name. */
  labels: ChipLabel[];
  me: string;
  active: boolean;
}) {
  const [searchParams] = useSearchParams();
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const text = useRef<HTMLInputElement>(null);
  useEffect(() => () => clearTimeout(timer.current), []);
  // The text box is left alone while it is being typed in; anything else (Clear, Back) sets it.
  useEffect(() => {
    const box = text.current;
    if (box && document.activeElement !== box) box.value = filters.q ?? '';
  }, [filters.q]);

  const apply = (form: HTMLFormElement, delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      // Only the filters that are set: a shared address stays short.
      const params = new URLSearchParams();
      for (const [name, value] of new FormData(form))
        if (typeof value === 'string' && value.trim() !== '') params.append(name, value);
      submit(params, { method: 'get', replace: true, preventScrollReset: true });
    }, delay);
  };

  return (
    <Form
      method="get"
      role="search"
      aria-label="Filter tasks"
      preventScrollReset
      // Selects said by the address: a new address (Clear, Back) draws them afresh.
      key={`${filters.assignee}:${filters.priority}:${filters.due}`}
      className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-2 text-sm"
      onChange={(event) => {
        const target = event.target as HTMLInputElement | HTMLSelectElement;
        apply(event.currentTarget, target.name === 'q' ? 300 : 0);
      }}
      onSubmit={(event) => {
        event.preventDefault();
        apply(event.currentTarget, 0);
      }}
    >
      {[...searchParams]
        .filter(([name]) => !FILTER_NAMES.has(name))
        .map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
      <input
        ref={text}
        type="search"
        name="q"
        aria-label="Search titles"
        placeholder="Filter by title or key"
        defaultValue={filters.q ?? ''}
        maxLength={MAX_FILTER_TEXT}
        className={`${control} w-full sm:w-56`}
      />
      <label className="flex items-center gap-1.5 text-slate-600">
        Assignee
        <select name="assignee" defaultValue={filters.assignee ?? ''} className={control}>
          <option value="">Anyone</option>
          <option value="me">Me</option>
          <option value="none">Unassigned</option>
          {people
            .filter((p) => p.id !== me)
            .map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
        </select>
      </label>
      <label className="flex items-center gap-1.5 text-slate-600">
        Priority
        <select name="priority" defaultValue={filters.priority ?? ''} className={control}>
          <option value="">Any</option>
          {[...TASK_PRIORITIES].reverse().map((p) => (
            <option key={p} value={p}>
              {p === 'none' ? 'No priority' : p[0]?.toUpperCase() + p.slice(1)}
            </option>
          ))}
        </select>
      </label>
      {labels.length > 0 ? <LabelChoices labels={labels} chosen={filters.label ?? []} /> : null}
      <label className="flex items-center gap-1.5 text-slate-600">
        Due
        <select name="due" defaultValue={filters.due ?? ''} className={control}>
          <option value="">Any time</option>
          <option value="overdue">Overdue</option>
          <option value="week">This week</option>
        </select>
      </label>
      {/* With JavaScript every change applies by itself; the button is for Enter and for no-JS. */}
      <button type="submit" className={`no-js-only ${control} font-medium`}>
        Apply filters
      </button>
      {active ? (
        <Link
          to={clearFiltersSearch(searchParams)}
          replace
          preventScrollReset
          className="text-indigo-700 underline hover:text-indigo-900"
        >
          Clear filters
        </Link>
      ) : null}
    </Form>
  );
}

/**
 * The label filter: a checkbox a label in a disclosure, so it works without JavaScript (tick, then
 * "Apply filters") and stays open while several are ticked with it.
 */
function LabelChoices({ labels, chosen }: { labels: ChipLabel[]; chosen: string[] }) {
  const ticked = new Set(chosen.map((name) => name.toLowerCase()));
  const count = labels.filter((label) => ticked.has(label.name.toLowerCase())).length;
  return (
    <details className="relative text-slate-600">
      <summary className={`${control} cursor-pointer`}>Labels{count > 0 ? ` (${count})` : ''}</summary>
      {/* Drawn afresh when the address's labels change (Clear, Back); the disclosure stays open. */}
      <fieldset
        key={[...ticked].join('\n')}
        className="absolute z-20 mt-1 max-h-72 w-60 overflow-y-auto rounded-md border border-slate-200 bg-white p-2 shadow-lg"
      >
        <legend className="sr-only">Labels</legend>
        {labels.map((label) => (
          <label key={label.id} className="flex items-center gap-2 rounded px-1 py-1 hover:bg-slate-50">
            <input
              type="checkbox"
              name="label"
              value={label.name}
              defaultChecked={ticked.has(label.name.toLowerCase())}
            />
            <LabelChip label={label} />
          </label>
        ))}
      </fieldset>
    </details>
  );
}

/** Said instead of empty columns when no task matches. */
export function NoMatches() {
  const [searchParams] = useSearchParams();
  return (
    <p
      role="status"
      className="mt-4 rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm"
    >
      <span className="block font-medium text-slate-800">No tasks match these filters.</span>
      <span className="mt-1 block text-slate-600">
        Try another assignee, priority, label or due date, fewer words, or{' '}
        <Link to={clearFiltersSearch(searchParams)} replace className="text-indigo-700 underline">
          clear the filters
        </Link>{' '}
        to see every task.
      </span>
    </p>
  );
}
