// The task a panel address names (`/w/:workspace/p/:project/t/:number`), and what the panel shows
// with it: its comments, its files (with previews of pictures), the workspace's people and labels.
import type { AppLoadContext, LoaderFunctionArgs } from '@remix-run/node';
import { dataErrorResponse, notFound } from '~/utils/data-errors.server.ts';
import { publicAvatarUrl } from '~/utils/files.server.ts';
import { requireProject } from '~/utils/project.server.ts';
import { listPath, projectPath } from '~/utils/projects.ts';
import type { WorkspaceRole } from '~/utils/roles.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';
import { mergeTimeline, readTimeline } from './history.server.ts';

const PREVIEWABLE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const PREVIEW_SECONDS = 300;
/** A panel's address over the list, and the pages under it: `/w/<workspace>/p/<key>/list/t/<number>…`. */
const LIST_PANEL = /^\/w\/[^/]+\/p\/[^/]+\/list\/t\//;

/**
 * The task, in a project of the caller's workspace, with the labels on it; or a 404 (a 301 for an old
 * or capitalised address).
 */
export async function requireTask(
  request: Request,
  context: AppLoadContext,
  params: LoaderFunctionArgs['params'],
  minRole: WorkspaceRole = 'viewer',
) {
  const { user, member, supabase } = await signedIn(request, context, {
    workspace: params.workspace,
    minRole,
  });
  // The project comes with the membership (an old address is sent on to the key's by the board too).
  const project = requireProject(request, context, member, params.project);
  const number = Number(params.number);
  if (!Number.isInteger(number) || number < 1) throw notFound();
  const { data: found, error } = await supabase
    .from('tasks')
    .select(
      'id, number, title, description, status:status_id, priority, assignee_id, due_date, parent_id, project:projects!tasks_project_fkey(archived_at, statuses:project_statuses(id, name, category, position)), task_labels(label:labels(id, name, color)), task_watchers(user_id)',
    )
    .eq('project_id', project.id)
    .eq('workspace_id', member.workspace.id)
    .eq('number', number)
    .maybeSingle();
  if (error) throw dataErrorResponse(error);
  if (!found) throw notFound();
  // Whether the caller watches it: row-level security shows each person only their own watch.
  const { task_labels: on, task_watchers: watchers, ...task } = found;
  // The project's statuses in board order: the panel's Status choices, and whether the task is open.
  const statuses = (task.project?.statuses ?? [])
    .sort((a, b) => a.position - b.position || a.id.localeCompare(b.id))
    .map(({ id, name, category }) => ({ id, name, category }));
  // The labels on the task, by name.
  const labels = on
    .flatMap(({ label }) => (label ? [label] : []))
    .sort((a, b) => a.name.localeCompare(b.name));
  // The panel opens over the board or over the list (the same route module at both addresses): its
  // forms come back to the panel over the view it was opened from, and a deleted task leaves for it.
  const view = LIST_PANEL.test(new URL(request.url).pathname)
    ? listPath(member.workspace.slug, project.key)
    : projectPath(member.workspace.slug, project.key);
  const here = `${view}/t/${task.number}`;
  const watching = watchers.some((w) => w.user_id === user.id);
  return { request, context, user, member, project, task, statuses, labels, watching, supabase, here, view };
}

/** A task request: who asks, the task, and the panel's address to come back to. */
export type TaskRequest = Awaited<ReturnType<typeof requireTask>>;

/** The task's timeline (comments and history), files, the workspace's people and labels, as the panel shows them. */
export async function taskPanelData(found: TaskRequest) {
  const { supabase, member, task } = found;
  const [timeline, members, attachments, labels] = await Promise.all([
    readTimeline(found),
    supabase
      .from('workspace_members')
      .select('user_id, profile:profiles!workspace_members_profile_fkey(display_name, avatar_path)')
      .eq('workspace_id', member.workspace.id),
    supabase
      .from('attachments')
      .select(
        'id, name, size, content_type, path, uploaded_by, uploader:profiles!attachments_uploader_profile_fkey(display_name)',
      )
      .eq('task_id', task.id)
      .order('created_at'),
    supabase.from('labels').select('id, name, color').eq('workspace_id', member.workspace.id),
  ]);
  if (labels.error) throw dataErrorResponse(labels.error);
  if (members.error) throw dataErrorResponse(members.error);
  if (attachments.error) throw dataErrorResponse(attachments.error);
  // Previews: short-lived signed URLs for images, handed out only for rows RLS just let us read.
  const images = attachments.data.filter((a) => PREVIEWABLE.has(a.content_type));
  const previews = new Map<string, string>();
  if (images.length > 0) {
    const { data } = await supabase.storage.from('attachments').createSignedUrls(
      images.map((a) => a.path),
      PREVIEW_SECONDS,
    );
    for (const signed of data ?? [])
      if (signed.path && signed.signedUrl) previews.set(signed.path, signed.signedUrl);
  }
  const names = new Map(members.data.map((m) => [m.user_id, m.profile?.display_name ?? 'Someone']));
  return {
    timeline: mergeTimeline(timeline.comments, timeline.history, names),
    clock: timeline.clock,
    workspaceLabels: labels.data.sort((a, b) => a.name.localeCompare(b.name)),
    attachments: attachments.data.map(({ path, uploader, ...a }) => ({
      ...a,
      uploader: uploader?.display_name ?? 'Someone',
      preview: previews.get(path) ?? null,
    })),
    members: members.data.map((m) => ({
      id: m.user_id,
      name: m.profile?.display_name ?? 'Someone',
      avatar: publicAvatarUrl(m.profile?.avatar_path),
    })),
  };
}
