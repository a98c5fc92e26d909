import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { dataErrorResponse } from '~/utils/data-errors.server.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { readIntent } from '~/utils/intent.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { atLeast } from '~/utils/roles.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';
import { MembersIntent } from './intents.server.ts';
import { invite, resend, revoke } from './invitations.server.ts';
import { InvitationSent, Invite } from './invite.tsx';
import { MemberList } from './member-list.tsx';
import { changeRole, removeMember } from './members.server.ts';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user, member, supabase } = await signedIn(request, context, { workspace: params.workspace });
  const { workspace, role } = member;
  const isAdmin = atLeast(role, 'admin');
  const [members, invitations] = await Promise.all([
    supabase
      .from('workspace_members')
      .select('user_id, role, profile:profiles!workspace_members_profile_fkey(display_name)')
      .eq('workspace_id', workspace.id)
      .order('role', { ascending: false }),
    // Members and viewers cannot read invitations (RLS); admins see the open ones.
    supabase
      .from('invitations')
      .select('id, email, role, expires_at')
      .eq('workspace_id', workspace.id)
      .is('accepted_at', null)
      .is('revoked_at', null)
      .order('created_at', { ascending: false }),
  ]);
  if (members.error) throw dataErrorResponse(members.error);
  if (isAdmin && invitations.error) throw dataErrorResponse(invitations.error);
  return json({
    me: user.id,
    myRole: role,
    personal: workspace.is_personal,
    members: members.data.map((m) => ({
      id: m.user_id,
      role: m.role,
      name: m.profile?.display_name ?? 'Someone',
    })),
    invitations: isAdmin ? (invitations.data ?? []) : [],
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameSite(request);
  const { user, member, supabase } = await signedIn(request, context, { workspace: params.workspace });
  const formData = await readForm(request);
  const sent = readIntent(formData, MembersIntent);
  const page = {
    request,
    context,
    supabase,
    workspaceId: member.workspace.id,
    back: `/w/${member.workspace.slug}/members`,
  };
  switch (sent.intent) {
    case 'invite':
      return invite(page, formData);
    case 'resend':
      return resend(page, sent.id);
    case 'revoke':
      return revoke(page, sent.id);
    case 'role':
      return changeRole(page, formData, sent.id);
    case 'remove':
      return removeMember(page, sent.id, false);
    case 'leave':
      return removeMember(page, user.id, true);
  }
}

export default function Members() {
  const { me, myRole, personal, members, invitations } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <div className="max-w-2xl space-y-8">
      <h1 className="text-xl font-semibold">Members</h1>
      {reply?.sent ? <InvitationSent {...reply.sent} /> : null}
      <MemberList members={members} me={me} myRole={myRole} personal={personal} />
      {atLeast(myRole, 'admin') && !personal ? (
        <Invite
          myRole={myRole}
          invitations={invitations}
          lastResult={reply?.intent === 'invite' ? reply.result : undefined}
        />
      ) : null}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: 'Members · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
