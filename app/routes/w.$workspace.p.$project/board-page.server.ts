// The board's data: its one backend call (`board_page` answers the session check, the caller's
// membership of the workspace and the board's windows of cards, filtered, in one request; signedIn()
// makes it), and what the page shows of the answer.
import {
  longerWindows,
  type BoardStatus,
  type Filters,
  type Priority,
  type Status,
  type Windows,
} from '~/utils/board.ts';
import type { ChipLabel } from '~/components/label-chip.tsx';
import { notFound } from '~/utils/data-errors.server.ts';
import { publicAvatarUrl } from '~/utils/files.server.ts';
import { boardFilterText } from '~/utils/filter-match.ts';
import { pageQuery, type PageQueryAnswer } from '~/utils/session/page-query.server.ts';
import { versionOf } from './live-apply.ts';

export type BoardTaskRow = {
  id: string;
  number: number;
  title: string;
  status_id: Status;
  position: number;
  priority: Priority;
  due_date: string | null;
  assignee_id: string | null;
  /** The row's version (live-apply.ts `versionOf`). */
  updated_at: string;
  comments: number;
  attachments: number;
  /** By name. */
  labels: ChipLabel[];
  /** Sub-tasks done (a `completed` status) of all but the canceled ones. */
  subtasks: { done: number; total: number };
  /** Blocked by a task that is neither completed nor canceled. */
  blocked: boolean;
  /** The description's checklist items: how many are ticked, of how many; null without any. */
  checklist: { done: number; total: number } | null;
};

/** The project a project page's call answers with (the board's and the list's). */
export interface PageProject {
  id: string;
  key: string;
  name: string;
  description: string | null;
  archived_at: string | null;
}

/** What `board_page` answers (its migration documents the JSON). */
export interface BoardPageAnswer extends PageQueryAnswer {
  project: PageProject | null;
  people: Array<{ id: string; display_name: string; avatar_path: string | null }> | null;
  /** The workspace's labels by name: the label filter's choices. */
  labels: ChipLabel[] | null;
  /** The project's statuses in order, each with its window of cards. */
  columns: Array<BoardStatus & { count: number; total: number; tasks: BoardTaskRow[] }> | null;
}

export function boardPage(page: {
  workspace: string;
  project: string;
  windows: Windows;
  filters: Filters;
  /** The reader's calendar date, for the due-date filters. */
  today: string;
}) {
  return pageQuery<BoardPageAnswer>('board_page', {
    workspace_slug: page.workspace,
    project_key: page.project,
    shown: longerWindows(page.windows),
    filters: { ...page.filters, q: boardFilterText(page.filters.q, page.project), today: page.today },
  });
}

/**
 * What the board page shows of the answer, or a 404 when the project is not there (or not the
 * caller's). Board order: column by column, each top to bottom. Each card keeps its position: a
 * change another person makes is placed by it in the browser's copy (live-apply.ts). (Counts of
 * nothing stay on the server.)
 */
export function boardView(answer: BoardPageAnswer) {
  const { project, columns } = answer;
  if (!project || !columns) throw notFound();
  const byStatus = <T>(value: (column: NonNullable<BoardPageAnswer['columns']>[number]) => T) =>
    Object.fromEntries(columns.map((column) => [column.id, value(column)])) as Record<Status, T>;
  return {
    project,
    // The board's columns, in order.
    statuses: columns.map(({ id, name, category }) => ({ id, name, category })),
    tasks: columns.flatMap((column) =>
      column.tasks.map((t) => ({
        id: t.id,
        number: t.number,
        title: t.title,
        status: t.status_id,
        position: Number(t.position),
        priority: t.priority,
        due: t.due_date,
        assignee: t.assignee_id,
        // A live change older than this is one the card has moved past (live-apply.ts).
        version: versionOf(t.updated_at) ?? 0,
        ...(t.comments > 0 ? { comments: t.comments } : {}),
        ...(t.attachments > 0 ? { attachments: t.attachments } : {}),
        ...(t.labels.length > 0 ? { labels: t.labels } : {}),
        ...(t.subtasks.total > 0 ? { subtasks: t.subtasks } : {}),
        ...(t.blocked ? { blocked: true } : {}),
        ...(t.checklist ? { checklist: t.checklist } : {}),
      })),
    ),
    // The cards that match the filters (all of them without one), and all of each column's.
    counts: byStatus((column) => column.count),
    totals: byStatus((column) => column.total),
    // The workspace's members, once: the cards' faces and the assignee filter's choices.
    people: (answer.people ?? []).map((p) => ({
      id: p.id,
      name: p.display_name,
      avatar: publicAvatarUrl(p.avatar_path),
    })),
    labels: answer.labels ?? [],
  };
}
