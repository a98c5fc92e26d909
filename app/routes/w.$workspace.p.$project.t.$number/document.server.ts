// The task as a document: its description and comments rendered from markdown, with the task keys
// they name looked up in one query (as the reader: RLS shows only tasks they may see).
import { dataErrorResponse } from '~/utils/data-errors.server.ts';
import { checklistItems } from '~/utils/markdown-rules.ts';
import { renderMarkdown, taskKeysIn, type MarkdownContext } from '~/utils/markdown.server.ts';
import { taskPath } from '~/utils/projects.ts';
import type { TimelineEntry } from './history.server.ts';
import type { TaskRequest } from './task.server.ts';

/** At most this many different keys are looked up for one page; the rest stay text. */
const MAX_KEYS = 100;

/** The tasks of the workspace these keys name, by key in capitals, with their address and title. */
async function referencedTasks({ supabase, member }: TaskRequest, texts: readonly string[]) {
  const keys = taskKeysIn(texts).slice(0, MAX_KEYS);
  const found = new Map<string, { path: string; title: string }>();
  if (keys.length === 0) return found;
  const { data, error } = await supabase
    .from('tasks')
    .select('number, title, project:projects!tasks_project_fkey!inner(key)')
    .eq('workspace_id', member.workspace.id)
    .in('project.key', [...new Set(keys.map((k) => k.project))])
    .in('number', [...new Set(keys.map((k) => k.number))]);
  if (error) throw dataErrorResponse(error);
  for (const t of data) {
    if (!t.project) continue;
    found.set(`${t.project.key}-${t.number}`, {
      path: taskPath(member.workspace.slug, t.project.key, t.number),
      title: t.title,
    });
  }
  return found;
}

/**
 * The description's HTML (its checklist tickable when `canTick`) and the timeline with each comment's
 * body's. `members` are those `@name` may mention.
 */
export async function taskDocument(
  found: TaskRequest,
  timeline: TimelineEntry[],
  members: MarkdownContext['members'],
  canTick: boolean,
) {
  const { task, member, request } = found;
  const bodies = timeline.flatMap((e) => (e.type === 'comment' ? [e.comment.body] : []));
  const tasks = await referencedTasks(found, [task.description, ...bodies]);
  const context: MarkdownContext = { workspaceSlug: member.workspace.slug, tasks, members };
  return {
    document: {
      description: renderMarkdown(task.description, { ...context, tickable: canTick }),
      checklistItems: checklistItems(task.description).length,
      editing: new URL(request.url).searchParams.get('edit') === 'task',
    },
    timeline: timeline.map((e) =>
      e.type === 'comment'
        ? { ...e, comment: { ...e.comment, html: renderMarkdown(e.comment.body, context) } }
        : e,
    ),
  };
}
