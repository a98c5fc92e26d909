import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import {
  Field,
  FormMessage,
  SubmitButton,
  useClearPasswordOnReply,
  useSchemaForm,
} from '~/components/forms.tsx';
import { Panel } from '~/components/panel.tsx';
import { getFormProps } from '~/components/schema-form.ts';
import { ChangeEmailSchema, ChangePasswordSchema } from '~/utils/account-schemas.ts';
import { dataErrorResponse } from '~/utils/data-errors.server.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { relativeTime } from '~/utils/format.ts';
import { readIntent } from '~/utils/intent.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';
import { describeDevice } from '~/utils/user-agent.ts';
import { changeEmail, changePassword, deleteTheAccount } from './account-changes.server.ts';
import { DeleteAccount } from './delete-account.tsx';
import { SecurityIntent } from './intents.server.ts';
import { Sessions } from './sessions.tsx';
import { signOutEverywhere, signOutOthers, signOutSession } from './sign-outs.server.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, supabase } = await signedIn(request, context);
  const { data, error } = await supabase.rpc('my_sessions');
  if (error) throw dataErrorResponse(error);
  const now = Date.now();
  return json({
    // The session being at aal2 means a verified factor was used: no request to the auth server needed.
    twoStepOn: user.aal === 'aal2',
    sessions: data.map((s) => ({
      id: s.id,
      device: describeDevice(s.user_agent),
      lastSeen: relativeTime(s.last_seen_at, now),
      signedIn: relativeTime(s.created_at, now),
      current: s.is_current,
    })),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameSite(request);
  const { user, supabase } = await signedIn(request, context);
  const formData = await readForm(request);
  const { intent } = readIntent(formData, SecurityIntent);
  const page = { request, context, supabase, userId: user.id };
  switch (intent) {
    case 'session':
      return signOutSession(page, formData);
    case 'others':
      return signOutOthers(page);
    case 'everywhere':
      return signOutEverywhere(page);
    case 'password':
      return changePassword(page, formData);
    case 'email':
      return changeEmail(page, formData);
    case 'delete-account':
      return deleteTheAccount(page, formData);
  }
}

export default function Security() {
  const { sessions, twoStepOn } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [passwordForm, passwordFields] = useSchemaForm(
    'change-password',
    ChangePasswordSchema,
    actionData?.intent === 'password' ? actionData.result : undefined,
  );
  const [emailForm, emailFields] = useSchemaForm(
    'change-email',
    ChangeEmailSchema,
    actionData?.intent === 'email' ? actionData.result : undefined,
  );
  useClearPasswordOnReply(passwordFields.currentPassword.id, actionData);
  useClearPasswordOnReply(passwordFields.password.id, actionData);
  useClearPasswordOnReply(emailFields.currentPassword.id, actionData);
  const notice = actionData?.notice;
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Security</h1>
      {notice ? <FormMessage tone="info">{notice}</FormMessage> : null}
      <Panel title="Two-step verification">
        <p className="text-sm text-slate-700">
          {twoStepOn
            ? 'On: signing in asks for a code from your authenticator app.'
            : 'Off: add an authenticator app so that a password alone cannot open your account.'}
        </p>
        <Link
          to="/account/security/mfa"
          className="mt-3 inline-block text-sm font-medium text-indigo-600 hover:underline"
        >
          Manage two-step verification
        </Link>
      </Panel>
      <Panel title="Change password">
        <Form method="post" {...getFormProps(passwordForm)} className="space-y-4">
          {passwordForm.errors ? <FormMessage>{passwordForm.errors.join(' ')}</FormMessage> : null}
          <Field
            label="Current password"
            field={passwordFields.currentPassword}
            type="password"
            autoComplete="current-password"
          />
          <Field
            label="New password"
            field={passwordFields.password}
            type="password"
            autoComplete="new-password"
            hint="8 to 72 characters."
          />
          <SubmitButton name="intent" value="password">
            Change password
          </SubmitButton>
        </Form>
      </Panel>
      <Panel title="Change email">
        <Form method="post" {...getFormProps(emailForm)} className="space-y-4">
          {emailForm.errors ? <FormMessage>{emailForm.errors.join(' ')}</FormMessage> : null}
          <Field
            label="Email"
            field={emailFields.email}
            type="email"
            autoComplete="email"
            hint="We send a link to your current and your new address; both must be followed."
          />
          <Field
            label="Current password"
            field={emailFields.currentPassword}
            type="password"
            autoComplete="current-password"
          />
          <SubmitButton name="intent" value="email">
            Change email
          </SubmitButton>
        </Form>
      </Panel>
      <Sessions sessions={sessions} />
      <DeleteAccount reply={actionData} />
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: 'Security · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
