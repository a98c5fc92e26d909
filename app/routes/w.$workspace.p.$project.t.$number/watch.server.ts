// Watching a task: the panel's Watch / Unwatch form. Anyone who reads the task may watch it (viewers
// too); the rows are the caller's own, and row-level security decides (public.task_watchers).
import { json } from '@remix-run/node';
import { classifyDataError } from '~/utils/data-errors.server.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import type { TaskRequest } from './task.server.ts';

export async function setWatching(
  { request, context, supabase, user, member, task, here }: TaskRequest,
  watch: boolean,
) {
  const { error } = watch
    ? await supabase
        .from('task_watchers')
        .upsert(
          { task_id: task.id, user_id: user.id, workspace_id: member.workspace.id },
          { onConflict: 'task_id,user_id', ignoreDuplicates: true },
        )
    : await supabase.from('task_watchers').delete().eq('task_id', task.id).eq('user_id', user.id);
  if (error) {
    const failure = classifyDataError(error);
    return json({ intent: 'watch' as const, watchError: failure.message }, { status: failure.status });
  }
  return redirectWithSession(here, request, context);
}
