// Changing a member's role, removing them, and leaving. RLS decides who may: a role below yours is
// all you may change or remove, and the owner cannot leave.
import { badRequest, dataErrorKind, dataErrorResponse, notFound } from '~/utils/data-errors.server.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { InviteSchema } from '~/utils/workspace-schemas.ts';
import type { MembersRequest } from './invitations.server.ts';

export async function changeRole(
  { request, context, supabase, workspaceId, back }: MembersRequest,
  formData: FormData,
  userId: string,
) {
  const parsedRole = InviteSchema.shape.role.safeParse(formData.get('role'));
  if (!parsedRole.success) throw badRequest();
  const { data, error } = await supabase
    .from('workspace_members')
    .update({ role: parsedRole.data })
    .eq('workspace_id', workspaceId)
    .eq('user_id', userId)
    .select('user_id');
  // Refused or not there look the same: a role below yours is all you may change.
  if ((error && dataErrorKind(error) === 'forbidden') || (!error && data.length !== 1)) throw notFound();
  if (error) throw dataErrorResponse(error);
  return redirectWithSession(back, request, context);
}

/** Removes `userId` from the workspace; leaving is removing oneself, and goes on to one's workspaces. */
export async function removeMember(
  { request, context, supabase, workspaceId, back }: MembersRequest,
  userId: string,
  leaving: boolean,
) {
  const { data, error } = await supabase
    .from('workspace_members')
    .delete()
    .eq('workspace_id', workspaceId)
    .eq('user_id', userId)
    .select('user_id');
  if (error) throw dataErrorResponse(error);
  if (data.length !== 1) throw notFound();
  return redirectWithSession(leaving ? '/w' : back, request, context);
}
