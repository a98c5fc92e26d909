import { getFormProps, getSelectProps } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { ErrorList, Field, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { atLeast, type WorkspaceRole } from '~/utils/roles.ts';
import { InviteSchema } from '~/utils/workspace-schemas.ts';
import { sendInvitationEmail } from '~/utils/mail.server.ts';
import { siteUrl } from '~/utils/site.server.ts';
import { readForm } from '~/utils/form-body.server.ts';
import {
  classifyDataError,
  dataErrorKind,
  dataErrorResponse,
  notFound,
  badRequest,
} from '~/utils/data-errors.server.ts';
import { isUuid } from '~/utils/uuid.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';

const ROLE_LABEL: Record<WorkspaceRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
};

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
  const { workspace } = member;
  const formData = await readForm(request);
  const intent = String(formData.get('intent') ?? '');
  const back = `/w/${workspace.slug}/members`;
  const inviteLink = (token: string) => `${siteUrl(request)}/invite/${token}`;
  // The link goes by email; the inviter also sees it, to pass on if the email cannot be sent.
  const deliver = async (id: string, token: string, to: string) => {
    const email = await sendInvitationEmail(supabase, { id, token });
    return { link: inviteLink(token), email, to };
  };

  if (intent === 'invite') {
    const submission = parseWithZod(formData, { schema: InviteSchema });
    if (submission.status !== 'success')
      return json({ intent, result: submission.reply(), sent: null }, { status: 400 });
    const { data, error } = await supabase.rpc('create_invitation', {
      workspace_id: workspace.id,
      ...submission.value,
    });
    if (error) {
      const failure = classifyDataError(error);
      const message = failure.kind === 'conflict' ? 'That person is already a member.' : failure.message;
      return json(
        { intent, result: submission.reply({ fieldErrors: { email: [message] } }), sent: null },
        { status: failure.status },
      );
    }
    const created = data[0];
    const sent = await deliver(created?.invitation_id ?? '', created?.token ?? '', submission.value.email);
    return json({ intent, result: submission.reply({ resetForm: true }), sent });
  }

  if (!['resend', 'revoke', 'role', 'remove', 'leave'].includes(intent)) throw badRequest();
  const target = String(formData.get('id') ?? '');
  if (!isUuid(target)) throw notFound();
  if (intent === 'resend') {
    const { data: token, error } = await supabase.rpc('resend_invitation', { invitation_id: target });
    if (error) throw notFound();
    const { data: invitation } = await supabase.from('invitations').select('email').eq('id', target).single();
    if (!invitation) throw notFound();
    return json({ intent, result: null, sent: await deliver(target, token, invitation.email) });
  }
  if (intent === 'revoke') {
    const { data, error } = await supabase
      .from('invitations')
      .update({ revoked_at: new Date().toISOString() })
      .eq('id', target)
      .select('id');
    if (error || data.length !== 1) throw notFound();
    return redirectWithSession(back, request, context);
  }
  if (intent === 'role') {
    const parsedRole = InviteSchema.shape.role.safeParse(formData.get('role'));
    if (!parsedRole.success) throw badRequest();
    const role = parsedRole.data;
    const { data, error } = await supabase
      .from('workspace_members')
      .update({ role })
      .eq('workspace_id', workspace.id)
      .eq('user_id', target)
      .select('user_id');
    // Refused or not there look the same: a role below yours is all you may change.
    if ((error && dataErrorKind(error) === 'forbidden') || (!error && data.length !== 1)) throw notFound();
    if (error) throw dataErrorResponse(error);
    return redirectWithSession(back, request, context);
  }
  if (intent === 'remove' || intent === 'leave') {
    const who = intent === 'leave' ? user.id : target;
    const { data, error } = await supabase
      .from('workspace_members')
      .delete()
      .eq('workspace_id', workspace.id)
      .eq('user_id', who)
      .select('user_id');
    if (error) throw dataErrorResponse(error);
    if (data.length !== 1) throw notFound();
    return redirectWithSession(intent === 'leave' ? '/w' : back, request, context);
  }
  throw badRequest();
}

export default function Members() {
  const { me, myRole, personal, members, invitations } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm(
    'invite',
    InviteSchema,
    actionData?.intent === 'invite' ? actionData.result : undefined,
    { email: '', role: 'member' },
  );
  const isAdmin = atLeast(myRole, 'admin');
  const canManage = (role: WorkspaceRole) =>
    myRole === 'owner' ? role !== 'owner' : isAdmin && (role === 'viewer' || role === 'member');
  const roleChoices: WorkspaceRole[] =
    myRole === 'owner' ? ['viewer', 'member', 'admin'] : ['viewer', 'member'];
  return (
    <div className="max-w-2xl space-y-8">
      <h1 className="text-xl font-semibold">Members</h1>
      {actionData?.sent ? <InvitationSent {...actionData.sent} /> : null}
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
        {members.map((m) => (
          <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
            <span>
              <span className="font-medium">{m.name}</span>
              {m.id === me ? <span className="text-slate-500"> (you)</span> : null}
            </span>
            <span className="flex items-center gap-2 text-sm">
              {m.id !== me && canManage(m.role) ? (
                <>
                  <Form method="post" className="flex items-center gap-1">
                    <input type="hidden" name="id" value={m.id} />
                    <label htmlFor={`role-${m.id}`} className="sr-only">
                      Role of {m.name}
                    </label>
                    <select
                      id={`role-${m.id}`}
                      name="role"
                      defaultValue={m.role}
                      className="rounded border border-slate-300 px-1 py-0.5"
                    >
                      {roleChoices.map((r) => (
                        <option key={r} value={r}>
                          {ROLE_LABEL[r]}
                        </option>
                      ))}
                    </select>
                    <button
                      type="submit"
                      name="intent"
                      value="role"
                      className="rounded border border-slate-300 px-2 py-0.5"
                    >
                      Change role
                    </button>
                  </Form>
                  <Form method="post">
                    <input type="hidden" name="id" value={m.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="remove"
                      className="text-red-700 hover:underline"
                      aria-label={`Remove ${m.name}`}
                    >
                      Remove
                    </button>
                  </Form>
                </>
              ) : (
                <span className="text-slate-600">{ROLE_LABEL[m.role]}</span>
              )}
              {m.id === me && m.role !== 'owner' && !personal ? (
                <Form method="post">
                  <input type="hidden" name="id" value={m.id} />
                  <button type="submit" name="intent" value="leave" className="text-red-700 hover:underline">
                    Leave workspace
                  </button>
                </Form>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
      {isAdmin && !personal ? (
        <section aria-labelledby="invite-title" className="rounded-lg border border-slate-200 bg-white p-5">
          <h2 id="invite-title" className="text-base font-semibold">
            Invite someone
          </h2>
          <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
            {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
            <Field label="Email" field={fields.email} type="email" />
            <div>
              <label htmlFor={fields.role.id} className="block text-sm font-medium">
                Role
              </label>
              <select
                {...getSelectProps(fields.role)}
                className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2"
              >
                {roleChoices.map((r) => (
                  <option key={r} value={r}>
                    {ROLE_LABEL[r]}
                  </option>
                ))}
              </select>
              <ErrorList id={fields.role.errorId} errors={fields.role.errors} />
            </div>
            <SubmitButton name="intent" value="invite">
              Invite
            </SubmitButton>
          </Form>
          {invitations.length > 0 ? (
            <ul className="mt-6 space-y-2 text-sm">
              {invitations.map((i) => (
                <li key={i.id} className="flex flex-wrap items-center justify-between gap-2">
                  <span>
                    {i.email} · {ROLE_LABEL[i.role]} · expires {i.expires_at.slice(0, 10)}
                  </span>
                  <span className="flex gap-3">
                    <Form method="post">
                      <input type="hidden" name="id" value={i.id} />
                      <button type="submit" name="intent" value="resend" className="hover:underline">
                        Resend
                      </button>
                    </Form>
                    <Form method="post">
                      <input type="hidden" name="id" value={i.id} />
                      <button
                        type="submit"
                        name="intent"
                        value="revoke"
                        className="text-red-700 hover:underline"
                      >
                        Revoke
                      </button>
                    </Form>
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: 'Members · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

function InvitationSent({ link, email, to }: { link: string; email: string; to: string }) {
  if (email === 'sent')
    return (
      <FormMessage tone="info">
        Invitation emailed to {to}. The link works for 7 days, for that address only.
      </FormMessage>
    );
  return (
    <FormMessage tone="info">
      {email === 'failed'
        ? `The invitation is ready, but the email to ${to} could not be sent. Send them this link yourself, or try Resend later`
        : `Invitation ready. Email is not set up on this server, so send ${to} this link yourself`}{' '}
      (it works for 7 days, for that address only):{' '}
      <a href={link} className="break-all font-medium underline">
        {link}
      </a>
    </FormMessage>
  );
}
