// The board's one backend call: `board_page` answers the session check, the caller's membership of the
// workspace and the board's windows of cards, filtered, in one request (signedIn() makes it).
import { longerWindows, type Filters, type Priority, type Status, type Windows } from '~/utils/board.ts';
import { pageQuery, type PageQueryAnswer } from '~/utils/session/page-query.server.ts';

export type BoardTaskRow = {
  id: string;
  number: number;
  title: string;
  status: Status;
  position: number;
  priority: Priority;
  due_date: string | null;
  assignee_id: string | null;
  comments: number;
  attachments: number;
};

/** What `board_page` answers (its migration documents the JSON). */
export interface BoardPageAnswer extends PageQueryAnswer {
  project: {
    id: string;
    key: string;
    name: string;
    description: string | null;
    archived_at: string | null;
  } | null;
  people: Array<{ id: string; display_name: string; avatar_path: string | null }> | null;
  columns: Array<{ status: Status; count: number; total: number; tasks: BoardTaskRow[] }> | null;
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
    filters: { ...page.filters, today: page.today },
  });
}
