import { Form, Link, useNavigation, useParams, useSubmit } from '@remix-run/react';
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { Avatar } from '~/components/avatar.tsx';
import { LabelChips } from '~/components/label-chip.tsx';
import { useHydrated } from '~/components/hydrated.ts';
import { canBeOverdue, type BoardStatus } from '~/utils/board.ts';
import { calendarDate, dueLabel, shortDate } from '~/utils/format.ts';
import { LIST_SORTS, LIST_WINDOW, showMoreRows, sortSearch, type ListSort, type Sort } from '~/utils/list.ts';
import { listPath, taskRef } from '~/utils/projects.ts';
import type { BulkReply } from './bulk-edit.server.ts';
import { BulkEditFields, priorityName } from './bulk-edit.tsx';
import type { ListTask } from './list-page.server.ts';
import { useLoadMore, useRowKeys } from './use-row-keys.ts';

const HEADINGS: Record<ListSort, string> = {
  key: 'Key',
  title: 'Title',
  status: 'Status',
  priority: 'Priority',
  assignee: 'Assignee',
  due: 'Due',
  updated: 'Updated',
  labels: 'Labels',
};

/** The columns a phone shows; the others' values go under the title there. */
const PHONE_COLUMNS: readonly ListSort[] = ['key', 'title'];
const WIDE = 'max-sm:hidden';

/**
 * The project's tasks, one row each, in one form: ticking rows and choosing what to set is a bulk
 * edit, sent in one request (so it works without JavaScript). With JavaScript, shift-click ticks a
 * range, one checkbox ticks every row shown, `j`/`k` move between rows and Enter opens one.
 */
export function ListTable({
  tasks,
  statuses,
  people,
  projectKey,
  sort,
  shown,
  count,
  today,
  timeZone,
  searchParams,
  canEdit,
  canTrash,
  reply,
}: {
  tasks: ListTask[];
  statuses: BoardStatus[];
  people: Array<{ id: string; name: string; avatar: string | null }>;
  projectKey: string;
  sort: Sort;
  shown: number;
  count: number;
  today: string;
  timeZone: string;
  searchParams: URLSearchParams;
  canEdit: boolean;
  canTrash: boolean;
  reply: BulkReply | undefined;
}) {
  const interactive = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const [ticked, setTicked] = useState(0);
  const lastClicked = useRef<number | null>(null);
  const statusById = new Map(statuses.map((s) => [s.id, s]));
  const personById = new Map(people.map((p) => [p.id, p]));
  // The panel's address keeps the filters and sort; a saved view's `kind` is the view page's own.
  const panelParams = new URLSearchParams(searchParams);
  panelParams.delete('kind');
  const search = panelParams.size > 0 ? `?${panelParams.toString()}` : '';
  // A task opens in the panel over the list, from a saved list view's page too.
  const { workspace = '' } = useParams();
  const panelBase = `${listPath(workspace, projectKey)}/t/`;
  const thisYear = Number(today.slice(0, 4));
  useRowKeys();

  const boxes = () => [...(form.current?.querySelectorAll<HTMLInputElement>('input[name="task"]') ?? [])];
  const recount = () => setTicked(boxes().filter((b) => b.checked).length);
  // After an edit that went through, the rows are unticked: the list reloads with what they now say.
  useEffect(() => {
    if (reply && 'bulk' in reply && reply.bulk.changed > 0) {
      for (const box of boxes()) box.checked = false;
      lastClicked.current = null;
      setTicked(0);
    }
  }, [reply]);

  // Shift-click ticks (or unticks) every row between the last one clicked and this one.
  const onBoxClick = (event: MouseEvent<HTMLInputElement>, index: number) => {
    const from = lastClicked.current;
    if (event.shiftKey && from !== null && from !== index) {
      const all = boxes();
      const [a, b] = from < index ? [from, index] : [index, from];
      for (const box of all.slice(a, b + 1)) box.checked = event.currentTarget.checked;
    }
    lastClicked.current = index;
    recount();
  };
  const allTicked = tasks.length > 0 && ticked === tasks.length;

  const more = tasks.length < count;
  const moreSearch = showMoreRows(searchParams, shown + LIST_WINDOW);
  const watchMore = useLoadMore(more ? moreSearch : null);
  const loadingMore = navigation.state === 'loading' && navigation.location.search === moreSearch;
  const busy = navigation.state === 'submitting';

  return (
    <Form method="post" ref={form} preventScrollReset className="mt-3" onChange={recount}>
      {canEdit ? (
        <BulkEditFields statuses={statuses} people={people} ticked={ticked} busy={busy} canTrash={canTrash} />
      ) : null}
      <div className="overflow-x-auto rounded-md border border-slate-200">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">
            Tasks, sorted by {HEADINGS[sort.sort].toLowerCase()},{' '}
            {sort.dir === 'asc' ? 'ascending' : 'descending'}
          </caption>
          <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
            <tr>
              {canEdit ? (
                <th scope="col" className="w-8 px-2 py-2">
                  {interactive ? (
                    <input
                      type="checkbox"
                      aria-label="Tick every task shown"
                      checked={allTicked}
                      ref={(box) => {
                        if (box) box.indeterminate = ticked > 0 && !allTicked;
                      }}
                      onChange={(event) => {
                        for (const box of boxes()) box.checked = event.currentTarget.checked;
                        lastClicked.current = null;
                        recount();
                      }}
                    />
                  ) : (
                    <span className="sr-only">Tick</span>
                  )}
                </th>
              ) : null}
              {LIST_SORTS.map((column) => {
                const current = sort.sort === column;
                return (
                  <th
                    key={column}
                    scope="col"
                    className={`whitespace-nowrap px-2 py-2 font-medium ${PHONE_COLUMNS.includes(column) ? '' : WIDE}`}
                    aria-sort={current ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    <Link
                      to={sortSearch(searchParams, column, sort)}
                      preventScrollReset
                      className="hover:underline"
                    >
                      {HEADINGS[column]}
                      {current ? <span aria-hidden="true">{sort.dir === 'asc' ? ' ↑' : ' ↓'}</span> : null}
                    </Link>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {tasks.map((task, index) => {
              const ref = taskRef(projectKey, task.number);
              const status = statusById.get(task.status);
              const assignee = task.assignee ? personById.get(task.assignee) : undefined;
              const due = task.due
                ? dueLabel(task.due, today, status ? canBeOverdue(status.category) : true)
                : null;
              const href = `${panelBase}${task.number}${search}`;
              return (
                <tr key={task.id} data-row className="border-t border-slate-100 hover:bg-slate-50">
                  {canEdit ? (
                    <td className="px-2 py-1.5">
                      <input
                        type="checkbox"
                        name="task"
                        value={task.id}
                        aria-label={`Tick ${ref}`}
                        onClick={(event) => onBoxClick(event, index)}
                      />
                    </td>
                  ) : null}
                  <td className="whitespace-nowrap px-2 py-1.5 font-mono text-xs text-slate-600">{ref}</td>
                  <td className="px-2 py-1.5">
                    <Link
                      to={href}
                      preventScrollReset
                      data-row-link
                      className="font-medium text-slate-900 hover:underline focus:underline"
                    >
                      {task.title}
                    </Link>
                    {/* On a phone the other columns are hidden: what they say, under the title. */}
                    <p className="mt-0.5 flex flex-wrap gap-x-1.5 text-xs text-slate-600 sm:hidden [&>*+*]:before:mr-1.5 [&>*+*]:before:content-['·']">
                      <span>{status?.name ?? ''}</span>
                      {task.priority === 'none' ? null : <span>{priorityName(task.priority)} priority</span>}
                      {task.due && due ? (
                        <span className={due.overdue ? 'font-medium text-red-700' : undefined}>
                          {due.text.startsWith('in ') ? `due ${due.text}` : due.text}
                        </span>
                      ) : null}
                      {assignee ? <span>{assignee.name}</span> : null}
                    </p>
                  </td>
                  <td className={`whitespace-nowrap px-2 py-1.5 ${WIDE}`}>{status?.name ?? ''}</td>
                  <td className={`whitespace-nowrap px-2 py-1.5 ${WIDE}`}>
                    {task.priority === 'none' ? (
                      <span className="text-slate-500">—</span>
                    ) : (
                      priorityName(task.priority)
                    )}
                  </td>
                  <td className={`whitespace-nowrap px-2 py-1.5 ${WIDE}`}>
                    {assignee ? (
                      <span className="flex items-center gap-1.5">
                        <Avatar name={assignee.name} url={assignee.avatar} decorative />
                        {assignee.name}
                      </span>
                    ) : (
                      <span className="text-slate-500">—</span>
                    )}
                  </td>
                  <td className={`whitespace-nowrap px-2 py-1.5 ${WIDE}`}>
                    {task.due && due ? (
                      <time
                        dateTime={task.due}
                        title={due.text}
                        className={due.overdue ? 'font-medium text-red-700' : undefined}
                      >
                        {shortDate(task.due, thisYear)}
                      </time>
                    ) : (
                      <span className="text-slate-500">—</span>
                    )}
                  </td>
                  <td className={`whitespace-nowrap px-2 py-1.5 text-slate-600 ${WIDE}`}>
                    <time dateTime={task.updated}>
                      {shortDate(calendarDate(task.updated, timeZone), thisYear)}
                    </time>
                  </td>
                  <td className={`px-2 py-1.5 ${WIDE}`}>
                    <LabelChips labels={task.labels} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {more ? (
        <p className="mt-2 text-center text-sm">
          <Link
            ref={watchMore}
            to={moreSearch}
            replace
            preventScrollReset
            className="text-indigo-700 underline hover:text-indigo-900"
            aria-label={`Show ${Math.min(LIST_WINDOW, count - tasks.length)} more tasks (${tasks.length} of ${count} shown)`}
          >
            {loadingMore ? 'Loading…' : `Show ${Math.min(LIST_WINDOW, count - tasks.length)} more`}
          </Link>
        </p>
      ) : null}
    </Form>
  );
}

/**
 * The sort on a phone, whose table has no column headers to pick it with: a column and a direction,
 * sent as the headers' links are (filters kept, the window started over). With JavaScript a choice
 * sorts at once.
 */
export function PhoneSort({ sort, searchParams }: { sort: Sort; searchParams: URLSearchParams }) {
  const submit = useSubmit();
  const kept = [...searchParams].filter(([name]) => !['sort', 'dir', 'show'].includes(name));
  return (
    <Form
      key={`${sort.sort} ${sort.dir}`}
      method="get"
      preventScrollReset
      className="mt-3 flex flex-wrap items-center gap-2 text-sm sm:hidden"
      onChange={(event) => submit(event.currentTarget, { preventScrollReset: true, replace: true })}
    >
      {kept.map(([name, value], index) => (
        <input key={`${name} ${index}`} type="hidden" name={name} value={value} />
      ))}
      <label className="flex items-center gap-1.5 text-slate-700">
        Sort by
        <select name="sort" defaultValue={sort.sort} className="filter-control">
          {LIST_SORTS.map((column) => (
            <option key={column} value={column}>
              {HEADINGS[column]}
            </option>
          ))}
        </select>
      </label>
      <select name="dir" defaultValue={sort.dir} aria-label="Direction" className="filter-control">
        <option value="asc">Ascending</option>
        <option value="desc">Descending</option>
      </select>
      <button type="submit" className="no-js-only button-quiet">
        Sort
      </button>
    </Form>
  );
}
