// A search of one workspace's tasks: what was typed, parsed (search-query.ts), then one call of
// `public.search_tasks` as the signed-in user. The search page and the command palette's results
// both come from here.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/types/database.ts';
import { dataErrorResponse } from './data-errors.server.ts';
import { taskPath, taskRef } from './projects.ts';
import {
  isEmptySearch,
  markedPieces,
  parseSearch,
  searchParameters,
  type SearchAnswer,
} from './search-query.ts';

export async function searchTasks(
  supabase: SupabaseClient<Database>,
  workspaceSlug: string,
  q: string,
  maxResults: number,
): Promise<SearchAnswer> {
  const search = parseSearch(q);
  const answer = { q, results: [], notes: search.notes, problem: search.problem };
  if (isEmptySearch(search)) return answer;
  const { data, error } = await supabase.rpc(
    'search_tasks',
    searchParameters(workspaceSlug, search, maxResults),
  );
  if (error) throw dataErrorResponse(error);
  return {
    ...answer,
    results: data.map((t) => ({
      id: t.id,
      ref: taskRef(t.project_key, t.number),
      href: taskPath(workspaceSlug, t.project_key, t.number),
      title: markedPieces(t.title_marked),
      project: t.project_name,
      status: t.status_name,
      matched: t.matched,
      snippet: t.snippet ? markedPieces(t.snippet) : null,
    })),
  };
}
