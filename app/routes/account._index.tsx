import { getFormProps } from '~/components/schema-form.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { Avatar } from '~/components/avatar.tsx';
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx';
import { Field, FileField, FormMessage, SubmitButton, useSchemaForm } from '~/components/forms.tsx';
import { randomUUID } from 'node:crypto';
import {
  AVATAR_MAX_BYTES,
  extensionOf,
  imageTypeOf,
  publicAvatarUrl,
  readUpload,
} from '~/utils/files.server.ts';
import { emptyStorageTrash } from '~/utils/admin.server.ts';
import { fileTooLargeMessage, MESSAGES } from '~/utils/messages.ts';
import { redirectWithFlash } from '~/utils/flash.server.ts';
import { requireSameSite } from '~/utils/request.server.ts';
import { DisplayNameSchema } from '~/utils/account-schemas.ts';
import { getSupabase } from '~/utils/session/supabase.server.ts';
import { pageQuery, type PageQueryAnswer } from '~/utils/session/page-query.server.ts';
import { readForm } from '~/utils/form-body.server.ts';
import { classifyDataError } from '~/utils/data-errors.server.ts';
import { signedIn } from '~/utils/session/signed-in.server.ts';

/** What `account_page` answers (supabase/migrations/20261124120000_account_page_plpgsql.sql). */
interface AccountPageAnswer extends PageQueryAnswer {
  profile: { display_name: string; avatar_path: string | null } | null;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  // The session check and the profile in one request.
  const { user, data: page } = await signedIn(request, context, {
    query: pageQuery<AccountPageAnswer>('account_page'),
  });
  const data = page.profile;
  return json({
    email: user.email,
    displayName: data?.display_name ?? '',
    avatarUrl: publicAvatarUrl(data?.avatar_path),
  });
}

async function uploadAvatar(request: Request, context: ActionFunctionArgs['context'], userId: string) {
  const refuse = (avatarError: string, status = 400) => json({ avatarError, result: null }, { status });
  const upload = await readUpload(request, 'avatar', AVATAR_MAX_BYTES);
  if (upload.status !== 'file')
    return upload.status === 'missing' ? refuse(MESSAGES.file_missing) : refuse(fileTooLargeMessage(2), 413);
  const bytes = new Uint8Array(await upload.file.arrayBuffer());
  // The bytes decide, never the name or the browser's word.
  const type = imageTypeOf(bytes);
  if (!type) return refuse(MESSAGES.file_type, 415);
  const { supabase } = getSupabase(request, context);
  const path = `${userId}/${randomUUID()}.${extensionOf(type)}`;
  const stored = await supabase.storage
    .from('avatars')
    .upload(path, bytes, { contentType: type, cacheControl: '31536000', upsert: false });
  if (stored.error) {
    const failure = classifyDataError(stored.error);
    return refuse(failure.kind === 'too_large' ? fileTooLargeMessage(2) : failure.message, failure.status);
  }
  const { data, error } = await supabase
    .from('profiles')
    .update({ avatar_path: path })
    .eq('id', userId)
    .select('id');
  if (error || data.length !== 1) {
    // Not half-saved: the new file goes if the profile does not point at it.
    await supabase.storage.from('avatars').remove([path]);
    const failure = error ? classifyDataError(error) : { message: MESSAGES.not_found, status: 404 };
    return refuse(failure.message, failure.status);
  }
  // The previous picture was queued for deletion by the profile's trigger.
  await emptyStorageTrash();
  return redirectWithFlash('/account', 'avatar_updated', request, context);
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameSite(request);
  const { user, supabase } = await signedIn(request, context);
  if ((request.headers.get('content-type') ?? '').startsWith('multipart/form-data')) {
    return uploadAvatar(request, context, user.id);
  }
  const formData = await readForm(request);
  if (formData.get('intent') === 'remove-avatar') {
    const { error } = await supabase.from('profiles').update({ avatar_path: null }).eq('id', user.id);
    if (error) {
      const failure = classifyDataError(error);
      return json({ avatarError: failure.message, result: null }, { status: failure.status });
    }
    await emptyStorageTrash();
    return redirectWithFlash('/account', 'avatar_removed', request, context);
  }
  const submission = parseWithZod(formData, { schema: DisplayNameSchema });
  if (submission.status !== 'success')
    return json({ result: submission.reply(), avatarError: null }, { status: 400 });
  const { data, error } = await supabase
    .from('profiles')
    .update({ display_name: submission.value.displayName })
    .eq('id', user.id)
    .select('id');
  if (error || data.length !== 1) {
    const failure = error ? classifyDataError(error) : { message: MESSAGES.not_found, status: 404 };
    return json(
      { result: submission.reply({ formErrors: [failure.message] }), avatarError: null },
      { status: failure.status },
    );
  }
  return redirectWithFlash('/account', 'profile_saved', request, context);
}

export default function Profile() {
  const { email, displayName, avatarUrl } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm('profile', DisplayNameSchema, actionData?.result ?? undefined, {
    displayName,
  });
  return (
    <section aria-labelledby="profile-title" className="space-y-6">
      <div>
        <h1 id="profile-title" className="text-xl font-semibold">
          Your account
        </h1>
        <p className="mt-1 text-slate-600">Signed in as {email}.</p>
      </div>
      <Form
        method="post"
        {...getFormProps(form)}
        className="max-w-md space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      >
        {form.errors ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <Field
          label="Display name"
          field={fields.displayName}
          type="text"
          autoComplete="nickname"
          hint="How teammates see you. 1 to 50 characters."
        />
        <SubmitButton>Save</SubmitButton>
      </Form>
      <AvatarForm
        avatarUrl={avatarUrl}
        displayName={displayName}
        email={email}
        error={actionData?.avatarError ?? null}
      />
    </section>
  );
}

function AvatarForm({
  avatarUrl,
  displayName,
  email,
  error,
}: {
  avatarUrl: string | null;
  displayName: string;
  email: string | undefined;
  error: string | null;
}) {
  return (
    <div className="max-w-md space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="text-base font-semibold">Picture</h2>
      <div className="flex items-center gap-4">
        <Avatar name={displayName || email || ''} url={avatarUrl} size="lg" />
        {avatarUrl ? (
          <Form method="post">
            <button
              type="submit"
              name="intent"
              value="remove-avatar"
              className="text-sm font-medium text-red-700 hover:underline"
            >
              Remove picture
            </button>
          </Form>
        ) : null}
      </div>
      <Form method="post" encType="multipart/form-data" className="space-y-3">
        <FileField
          id="avatar"
          name="avatar"
          label="New picture"
          hint="PNG, JPEG, WebP or GIF, at most 2 MB."
          accept="image/png,image/jpeg,image/webp,image/gif"
          error={error}
        />
        <SubmitButton>Upload picture</SubmitButton>
      </Form>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: 'Your account · Crewboard' }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
