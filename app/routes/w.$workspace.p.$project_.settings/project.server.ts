// The project's own fields, changed from its settings (admins: RLS decides). Its key never changes:
// addresses that worked once keep working.
import { json } from '@remix-run/node';
import { classifyDataError } from '~/utils/data-errors.server.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { RequestSupabase } from '~/utils/session/supabase.server.ts';
import { ProjectDetailsSchema } from '~/utils/workspace-schemas.ts';

type Supabase = RequestSupabase['supabase'];

export async function saveDetails(supabase: Supabase, project: { id: string }, formData: FormData) {
  const intent = 'details';
  const submission = parseWithZod(formData, { schema: ProjectDetailsSchema });
  if (submission.status !== 'success')
    return json({ intent, statusId: null, result: submission.reply() }, { status: 400 });
  const { error } = await supabase
    .from('projects')
    .update({ name: submission.value.name, description: submission.value.description ?? '' })
    .eq('id', project.id);
  if (error) {
    const failure = classifyDataError(error);
    return json(
      { intent, statusId: null, result: submission.reply({ formErrors: [failure.message] }) },
      { status: failure.status },
    );
  }
  return null;
}

/** Archives the project (its board becomes read-only) or makes it active again. */
export async function archiveProject(supabase: Supabase, project: { id: string }, archive: boolean) {
  const { error } = await supabase
    .from('projects')
    .update({ archived_at: archive ? new Date().toISOString() : null })
    .eq('id', project.id);
  if (error) {
    const failure = classifyDataError(error);
    return json(
      { intent: 'archive', statusId: null, moveError: failure.message },
      { status: failure.status },
    );
  }
  return null;
}
