// A task's place among others: its parent, its sub-tasks, and its links to tasks of any project of the
// workspace (blocks, blocked by, relates to, duplicate of). The database keeps the rules (a parent of
// the same project, one level deep; links within the workspace, never to itself, once a pair) and RLS
// decides who may change them; this turns its refusals into words beside the field, with what was
// typed kept: a 400 or 409, never a 500.
import { json } from '@remix-run/node';
import { classifyDataError, dataErrorResponse, violatedConstraint } from '~/utils/data-errors.server.ts';
import { overList, panelPath, taskRef } from '~/utils/projects.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { NewTaskSchema } from '~/utils/workspace-schemas.ts';
import { parseTaskKey } from '~/utils/markdown-rules.ts';
import type { TaskRequest } from './task.server.ts';

/** A link as the task sees it: which way it points from here. */
export const LINK_TYPES = ['blocked_by', 'blocks', 'relates', 'duplicate_of', 'duplicated_by'] as const;
export type LinkType = (typeof LINK_TYPES)[number];
/** The types a person adds (the other task's side reads the same link the other way). */
export const ADDABLE_LINK_TYPES = ['blocks', 'blocked_by', 'relates', 'duplicate_of'] as const;

type LinkKind = 'blocks' | 'relates' | 'duplicates';

/** How a link of `kind` reads from the task at its `from` end (`outgoing`) or at its `to` end. */
function typeOf(kind: string, outgoing: boolean): LinkType {
  if (kind === 'blocks') return outgoing ? 'blocks' : 'blocked_by';
  if (kind === 'duplicates') return outgoing ? 'duplicate_of' : 'duplicated_by';
  return 'relates';
}

/** The row that says `type` from this task to the other. */
function rowOf(type: (typeof ADDABLE_LINK_TYPES)[number], here: string, other: string) {
  const kind: LinkKind = type === 'relates' ? 'relates' : type === 'duplicate_of' ? 'duplicates' : 'blocks';
  const outgoing = type !== 'blocked_by';
  return { kind, from_task_id: outgoing ? here : other, to_task_id: outgoing ? other : here };
}

const OTHER_TASK =
  'id, number, title, project:projects!tasks_project_fkey(key), status:project_statuses!tasks_status_fkey(name, category)';

/** The parent, the sub-tasks (board order) and the links (grouped by type) the panel shows. */
export async function taskStructure({ request, supabase, member, project, task, statuses }: TaskRequest) {
  const slug = member.workspace.slug;
  // The other tasks open where this one is: over the board, or over the list.
  const list = overList(new URL(request.url).pathname);
  const [subtasks, parent, links] = await Promise.all([
    supabase
      .from('tasks')
      .select('id, number, title, status_id, position')
      .eq('parent_id', task.id)
      .eq('workspace_id', member.workspace.id)
      .order('number'),
    task.parent_id
      ? supabase.from('tasks').select('id, number, title').eq('id', task.parent_id).maybeSingle()
      : Promise.resolve({ data: null, error: null }),
    supabase
      .from('task_links')
      .select(
        `id, kind, from_task_id, from:tasks!task_links_from_fkey(${OTHER_TASK}), to:tasks!task_links_to_fkey(${OTHER_TASK})`,
      )
      .eq('workspace_id', member.workspace.id)
      .or(`from_task_id.eq.${task.id},to_task_id.eq.${task.id}`)
      .order('created_at'),
  ]);
  if (subtasks.error) throw dataErrorResponse(subtasks.error);
  if (parent.error) throw dataErrorResponse(parent.error);
  if (links.error) throw dataErrorResponse(links.error);
  const projectKey = project.key;
  const order = new Map(statuses.map((s, i) => [s.id, i]));
  return {
    parent: parent.data
      ? {
          ref: taskRef(projectKey, parent.data.number),
          title: parent.data.title,
          href: panelPath(slug, projectKey, parent.data.number, list),
        }
      : null,
    subtasks: subtasks.data
      .sort(
        (a, b) => (order.get(a.status_id) ?? 0) - (order.get(b.status_id) ?? 0) || a.position - b.position,
      )
      .map((t) => {
        const status = statuses.find((s) => s.id === t.status_id);
        return {
          id: t.id,
          ref: taskRef(projectKey, t.number),
          title: t.title,
          href: panelPath(slug, projectKey, t.number, list),
          status: status?.name ?? '',
          category: status?.category ?? 'unstarted',
        };
      }),
    links: links.data.flatMap((l) => {
      const outgoing = l.from_task_id === task.id;
      const other = outgoing ? l.to : l.from;
      if (!other) return [];
      const key = other.project?.key ?? '';
      return [
        {
          id: l.id,
          type: typeOf(l.kind, outgoing),
          ref: taskRef(key, other.number),
          title: other.title,
          href: panelPath(slug, key, other.number, list),
          status: other.status?.name ?? '',
          category: other.status?.category ?? 'unstarted',
        },
      ];
    }),
  };
}

export type TaskStructure = Awaited<ReturnType<typeof taskStructure>>;

/** Which of the structure forms answers, what it was sent, and why it was refused. */
export type StructureReply = {
  intent: 'add-subtask' | 'set-parent' | 'add-link' | 'remove-link';
  structureError: string;
  values: Record<string, string>;
};

function refuse(
  intent: StructureReply['intent'],
  values: Record<string, string>,
  message: string,
  status: number,
) {
  return json<StructureReply>({ intent, structureError: message, values }, { status });
}

/** The refusal of a change the database would not make, in words about this form. */
function refusedByDatabase(intent: StructureReply['intent'], values: Record<string, string>, error: unknown) {
  const failure = classifyDataError(error);
  const rule = violatedConstraint(error);
  const message =
    failure.kind === 'forbidden'
      ? 'This task’s sub-tasks and links cannot be changed here.'
      : failure.kind === 'conflict' && intent === 'add-link'
        ? 'These two tasks are already linked.'
        : rule === 'task_links_not_self'
          ? 'A task cannot be linked to itself.'
          : failure.kind === 'invalid' && isRecord(error) && typeof error.message === 'string' && rule
            ? // The parent rules' own words (tasks_check_parent): own parent, one level, same project.
              error.message
            : failure.message;
  return refuse(intent, values, message, failure.status);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The task a typed key names in this workspace, or a refusal in words. */
async function findByRef(
  { supabase, member }: TaskRequest,
  typed: string,
): Promise<{ refused: string } | { task: { id: string } }> {
  const ref = parseTaskKey(typed);
  if (!ref) return { refused: 'Enter a task key like WEB-12.' };
  const project = member.projects.find((p) => p.key === ref.key);
  const missing = { refused: `There is no task ${ref.key}-${ref.number} in this workspace.` };
  if (!project) return missing;
  const { data, error } = await supabase
    .from('tasks')
    .select('id')
    .eq('project_id', project.id)
    .eq('workspace_id', member.workspace.id)
    .eq('number', ref.number)
    .maybeSingle();
  if (error) throw dataErrorResponse(error);
  return data ? { task: data } : missing;
}

const text = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === 'string' ? value : '';
};

/** The sub-task form: a task of the same project, in its first open column, under this one. */
export async function addSubtask(found: TaskRequest, formData: FormData) {
  const { request, context, supabase, member, project, task, statuses, here } = found;
  const values = { title: text(formData, 'title') };
  // The project's first open column, as a task made without a status goes to.
  const status = statuses.find((s) => s.category === 'unstarted') ?? statuses[0];
  if (!status) return refuse('add-subtask', values, 'This project has no statuses.', 409);
  const title = NewTaskSchema.shape.title.safeParse(values.title);
  if (!title.success)
    return refuse('add-subtask', values, title.error.issues[0]?.message ?? 'Enter a title.', 400);
  const { error } = await supabase.from('tasks').insert({
    workspace_id: member.workspace.id,
    project_id: project.id,
    title: title.data,
    parent_id: task.id,
    status_id: status.id,
  });
  if (error) return refusedByDatabase('add-subtask', values, error);
  return redirectWithSession(here, request, context);
}

/** The parent form: this task under the task a key names (same project), or under none. */
export async function setParent(found: TaskRequest, formData: FormData, clear: boolean) {
  const { request, context, supabase, task, here } = found;
  const values = { parent: text(formData, 'parent') };
  let parentId: string | null = null;
  if (!clear) {
    const parent = await findByRef(found, values.parent);
    if ('refused' in parent) return refuse('set-parent', values, parent.refused, 400);
    parentId = parent.task.id;
  }
  const { data, error } = await supabase
    .from('tasks')
    .update({ parent_id: parentId })
    .eq('id', task.id)
    .select('id');
  if (error) return refusedByDatabase('set-parent', values, error);
  if (data.length === 0)
    return refuse('set-parent', values, 'This task’s sub-tasks and links cannot be changed here.', 403);
  return redirectWithSession(here, request, context);
}

/** The link form: a type and the other task's key, any project of the workspace. */
export async function addLink(found: TaskRequest, formData: FormData) {
  const { request, context, supabase, member, task, here } = found;
  const values = { type: text(formData, 'type'), task: text(formData, 'task') };
  const type = ADDABLE_LINK_TYPES.find((t) => t === values.type);
  if (!type) return refuse('add-link', values, 'Choose how the tasks are linked.', 400);
  const other = await findByRef(found, values.task);
  if ('refused' in other) return refuse('add-link', values, other.refused, 400);
  if (other.task.id === task.id) return refuse('add-link', values, 'A task cannot be linked to itself.', 400);
  const { error } = await supabase
    .from('task_links')
    .insert({ workspace_id: member.workspace.id, ...rowOf(type, task.id, other.task.id) });
  if (error) return refusedByDatabase('add-link', values, error);
  return redirectWithSession(here, request, context);
}

/** A link's remove button: the link, when it is one of this task's. */
export async function removeLink(found: TaskRequest, linkId: string) {
  const { request, context, supabase, task, here } = found;
  // Found first, then deleted by its key: PostgREST answers a DELETE filtered with `or` and returning
  // a selection with a column error (42703, "column task_links.from_task_id does not exist"), where a
  // SELECT reads it right. That is PostgREST's own behaviour (supabase/supabase#47283), not the local
  // backend's: the same request fails on a hosted project.
  const mine = await supabase
    .from('task_links')
    .select('id')
    .eq('id', linkId)
    .or(`from_task_id.eq.${task.id},to_task_id.eq.${task.id}`)
    .maybeSingle();
  if (mine.error) return refusedByDatabase('remove-link', {}, mine.error);
  const gone = () => refuse('remove-link', {}, 'That link is not there any more.', 404);
  if (!mine.data) return gone();
  const { data, error } = await supabase.from('task_links').delete().eq('id', linkId).select('id');
  if (error) return refusedByDatabase('remove-link', {}, error);
  if (data.length === 0) return gone();
  return redirectWithSession(here, request, context);
}
