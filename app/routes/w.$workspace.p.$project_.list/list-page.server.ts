// The list's data: its one backend call (`list_page` answers the session check, the caller's
// membership of the workspace and one window of the project's tasks, filtered and sorted, in one
// request; signedIn() makes it), and what the page shows of the answer.
import type { ChipLabel } from '~/components/label-chip.tsx';
import type { BoardStatus, Filters, Priority } from '~/utils/board.ts';
import { notFound } from '~/utils/data-errors.server.ts';
import { publicAvatarUrl } from '~/utils/files.server.ts';
import type { Sort } from '~/utils/list.ts';
import { pageQuery, type PageQueryAnswer } from '~/utils/session/page-query.server.ts';
import type { PageProject } from '../w.$workspace.p.$project/board-page.server.ts';

/** What `list_page` answers (its migration documents the JSON). */
export interface ListPageAnswer extends PageQueryAnswer {
  project: PageProject | null;
  statuses: BoardStatus[] | null;
  people: Array<{ id: string; display_name: string; avatar_path: string | null }> | null;
  labels: ChipLabel[] | null;
  count: number | null;
  total: number | null;
  tasks: Array<{
    id: string;
    number: number;
    title: string;
    status_id: string;
    priority: Priority;
    assignee_id: string | null;
    due_date: string | null;
    updated_at: string;
    labels: ChipLabel[];
  }> | null;
}

export function listPage(page: {
  workspace: string;
  project: string;
  filters: Filters;
  sort: Sort;
  shown: number;
  /** The reader's calendar date, for the due-date filters. */
  today: string;
}) {
  return pageQuery<ListPageAnswer>('list_page', {
    workspace_slug: page.workspace,
    project_key: page.project,
    filters: { ...page.filters, today: page.today },
    sort: page.sort.sort,
    dir: page.sort.dir,
    shown: page.shown,
  });
}

/** What the list page shows of the answer, or a 404 when the project is not there (or not the caller's). */
export function listView(answer: ListPageAnswer) {
  const { project, statuses, tasks } = answer;
  if (!project || !statuses || !tasks) throw notFound();
  return {
    project,
    statuses,
    tasks: tasks.map((t) => ({
      id: t.id,
      number: t.number,
      title: t.title,
      status: t.status_id,
      priority: t.priority,
      assignee: t.assignee_id,
      due: t.due_date,
      updated: t.updated_at,
      labels: t.labels,
    })),
    count: answer.count ?? 0,
    total: answer.total ?? 0,
    // The workspace's members, once: the rows' assignees, the filter's and the bulk edit's choices.
    people: (answer.people ?? []).map((p) => ({
      id: p.id,
      name: p.display_name,
      avatar: publicAvatarUrl(p.avatar_path),
    })),
    labels: answer.labels ?? [],
  };
}

export type ListTask = ReturnType<typeof listView>['tasks'][number];
