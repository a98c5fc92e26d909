// "Delete task" in the panel: the task goes to the workspace's trash (app/utils/trash.server.ts),
// and the board it leaves for says so, with an Undo.
import { taskRef } from '~/utils/projects.ts';
import { trashTask } from '~/utils/trash.server.ts';
import type { TaskRequest } from './task.server.ts';

export function deleteTask({ request, context, supabase, project, task, view }: TaskRequest) {
  const ref = taskRef(project.key, task.number);
  return trashTask(supabase, request, context, { id: task.id, ref }, view);
}
