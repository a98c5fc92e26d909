// Saving, finding, sharing and deleting saved views, as the signed-in person under RLS
// (supabase/migrations/20261201200000_saved_views.sql has the rules): the save form's schema, and one
// place that turns the database's refusals into what the form says next to its field.
import type { SupabaseClient } from '@supabase/supabase-js';
import * as z from 'zod/mini';
import type { Database } from '~/types/database.ts';
import { classifyDataError, dataErrorResponse, notFound } from './data-errors.server.ts';
import { parseWithZod } from './form-parse.ts';
import { readViewQuery, viewPath, type ViewKind } from './saved-views.ts';
import type { Membership } from './session/membership.server.ts';
import { noControlCharacters } from './schemas.ts';
import { isUuid } from './uuid.ts';

/** The save form: a name as a project's (SPEC section 5), whether to share it, and what it shows. */
export const SaveViewSchema = z.object({
  name: z
    .string({ error: 'Enter a view name.' })
    .check(
      z.trim(),
      noControlCharacters(),
      z.minLength(1, 'Enter a view name.'),
      z.maxLength(80, 'Use at most 80 characters.'),
    ),
  shared: z.optional(z.literal('on')),
  kind: z.optional(z.enum(['board', 'list'])),
  /** The view's GET parameters (`assignee=me&label=bug`); unknown ones are dropped, not refused. */
  query: z.optional(z.string().check(z.maxLength(4000))),
});

export const NAME_TAKEN = {
  personal: 'You already have a view of this project with that name. Try another.',
  shared: 'A shared view of this project already has that name. Try another.',
};

type Client = SupabaseClient<Database>;

/**
 * Saves the view the form describes. Its answer is the new view's id, or the form's reply with the
 * refusal next to the field it is about (a taken name: 409) or above the form.
 */
export async function saveView(
  supabase: Client,
  formData: FormData,
  where: { workspaceId: string; projectId: string },
) {
  const submission = parseWithZod(formData, { schema: SaveViewSchema });
  if (submission.status !== 'success') return { reply: submission.reply(), status: 400 as const };
  const { name, shared, kind = 'board', query = '' } = submission.value;
  const { data, error } = await supabase
    .from('saved_views')
    .insert({
      workspace_id: where.workspaceId,
      project_id: where.projectId,
      name,
      kind,
      query: readViewQuery(new URLSearchParams(query)),
      shared: shared === 'on',
    })
    .select('id')
    .single();
  if (!error) return { id: data.id, kind };
  const failure = classifyDataError(error);
  if (failure.kind === 'conflict')
    return {
      reply: submission.reply({ fieldErrors: { name: [shared ? NAME_TAKEN.shared : NAME_TAKEN.personal] } }),
      status: 409 as const,
    };
  const message =
    failure.kind === 'forbidden' ? 'Only admins can share views with the workspace.' : failure.message;
  return { reply: submission.reply({ formErrors: [message] }), status: failure.status };
}

export interface SavedView {
  id: string;
  project_id: string;
  owner_id: string;
  name: string;
  kind: ViewKind;
  query: unknown;
  shared: boolean;
}

/** A view of the project the caller reads, or a 404 (another person's personal view is not there). */
export async function requireView(supabase: Client, viewId: string | undefined, projectId: string) {
  if (!isUuid(viewId)) throw notFound();
  const { data, error } = await supabase
    .from('saved_views')
    .select('id, project_id, owner_id, name, kind, query, shared')
    .eq('id', viewId)
    .eq('project_id', projectId)
    .maybeSingle();
  if (error) throw dataErrorResponse(error);
  if (!data) throw notFound();
  return { ...data, kind: data.kind === 'list' ? 'list' : 'board' } satisfies SavedView;
}

/**
 * Shares or unshares a view. Null when done; else what to say (the policies decide: a person without
 * the right changes no row, and the database's refusal reads as such).
 */
export async function setViewShared(
  supabase: Client,
  viewId: string,
  shared: boolean,
): Promise<string | null> {
  const { data, error } = await supabase.from('saved_views').update({ shared }).eq('id', viewId).select('id');
  if (!error && data.length === 1) return null;
  const failure = error ? classifyDataError(error) : null;
  if (failure?.kind === 'conflict') return NAME_TAKEN.shared;
  if (!failure || failure.kind === 'forbidden')
    return shared ? 'Only admins can share views.' : 'Only the admin who shared this view can unshare it.';
  return failure.message;
}

/** Deletes a view; null when done, else what to say. */
export async function deleteView(supabase: Client, viewId: string): Promise<string | null> {
  const { data, error } = await supabase.from('saved_views').delete().eq('id', viewId).select('id');
  if (!error && data.length === 1) return null;
  if (!error) return 'Only admins can delete a shared view.';
  return classifyDataError(error).message;
}

/**
 * The sidebar's saved views, each with its address made here, on the server: the browser then needs
 * none of saved-views.ts (nor the board's schemas it reads), which would weigh on every page's JavaScript.
 */
export function sidebarViews(member: Membership) {
  const keys = new Map(member.projects.map((p) => [p.id, p.key]));
  return member.views.map((v) => ({
    id: v.id,
    project_id: v.project_id,
    name: v.name,
    shared: v.shared,
    href: viewPath(
      member.workspace.slug,
      keys.get(v.project_id) ?? '',
      v.id,
      v.query ?? {},
      v.kind === 'list' ? 'list' : 'board',
    ),
  }));
}
