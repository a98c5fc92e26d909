// Creating, renaming, recolouring and deleting a workspace's labels. RLS decides who may (admins and
// the owner); the database holds the name rules and the limit, and its refusals come back here as
// messages next to the field they are about, with what was typed kept.
import { json, type AppLoadContext } from '@remix-run/node';
import {
  classifyDataError,
  dataErrorResponse,
  notFound,
  violatedConstraint,
} from '~/utils/data-errors.server.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import { LABEL_NAME_MAX, LABELS_PER_WORKSPACE, LabelSchema } from '~/utils/label-schemas.ts';
import type { RequestSupabase } from '~/utils/session/supabase.server.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';

export interface LabelsRequest {
  request: Request;
  context: AppLoadContext;
  supabase: RequestSupabase['supabase'];
  workspaceId: string;
  /** The labels page, to come back to. */
  back: string;
}

/** What the person reads for each rule of the database a name or colour broke. */
const REFUSALS: Record<string, { field: 'name' | 'color' | ''; message: string }> = {
  labels_workspace_name_key: {
    field: 'name',
    message: 'A label with this name already exists. Choose another.',
  },
  labels_name_length: { field: 'name', message: `Use 1 to ${LABEL_NAME_MAX} characters.` },
  labels_name_printable: {
    field: 'name',
    message: 'Remove the control characters (such as tabs or line breaks) from the name.',
  },
  labels_color_in_palette: { field: 'color', message: 'Choose a colour from the list.' },
  labels_per_workspace: {
    field: '',
    message: `A workspace can have at most ${LABELS_PER_WORKSPACE} labels. Delete one you no longer use first.`,
  },
};

type Submission = ReturnType<typeof parseWithZod<typeof LabelSchema>>;

/** The reply to a refused create or change: the rule's message by its field, or the failure's own. */
function refused(error: unknown, submission: Submission) {
  const rule = REFUSALS[violatedConstraint(error) ?? ''];
  const failure = classifyDataError(error);
  const result = rule
    ? submission.reply(
        rule.field ? { fieldErrors: { [rule.field]: [rule.message] } } : { formErrors: [rule.message] },
      )
    : submission.reply({ formErrors: [failure.message] });
  return { result, status: rule ? (failure.kind === 'conflict' ? 409 : 400) : failure.status };
}

export async function createLabel(page: LabelsRequest, formData: FormData) {
  const intent = 'create' as const;
  const submission = parseWithZod(formData, { schema: LabelSchema });
  if (submission.status !== 'success')
    return json({ intent, id: null, result: submission.reply() }, { status: 400 });
  const { error } = await page.supabase
    .from('labels')
    .insert({ workspace_id: page.workspaceId, ...submission.value });
  if (error) {
    const { result, status } = refused(error, submission);
    return json({ intent, id: null, result }, { status });
  }
  return redirectWithSession(page.back, page.request, page.context);
}

export async function updateLabel(page: LabelsRequest, formData: FormData, id: string) {
  const intent = 'update' as const;
  const submission = parseWithZod(formData, { schema: LabelSchema });
  if (submission.status !== 'success')
    return json({ intent, id, result: submission.reply() }, { status: 400 });
  const { data, error } = await page.supabase
    .from('labels')
    .update(submission.value)
    .eq('id', id)
    .eq('workspace_id', page.workspaceId)
    .select('id');
  if (error) {
    const { result, status } = refused(error, submission);
    return json({ intent, id, result }, { status });
  }
  // Another workspace's label, one deleted meanwhile, or a change RLS refused: all look the same.
  if (data.length !== 1) throw notFound();
  return redirectWithSession(page.back, page.request, page.context);
}

/** Deletes the label; it comes off every task it was on (the foreign key cascades). */
export async function deleteLabel(page: LabelsRequest, id: string) {
  const { data, error } = await page.supabase
    .from('labels')
    .delete()
    .eq('id', id)
    .eq('workspace_id', page.workspaceId)
    .select('id');
  if (error) throw dataErrorResponse(error);
  if (data.length !== 1) throw notFound();
  return redirectWithSession(page.back, page.request, page.context);
}
