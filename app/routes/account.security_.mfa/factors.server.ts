// Authenticator apps (TOTP): set one up (QR code or the secret typed in, then a first code to prove
// it works), remove one. Removing a working one takes a fresh code: the session is at aal2 already,
// but whoever sits at an unlocked computer should not be able to switch the second step off.
import type { SubmissionResult } from '@conform-to/dom';
import { json, type AppLoadContext } from '@remix-run/node';
import { friendlyAuthError } from '~/utils/auth-errors.server.ts';
import { redirectWithFlash } from '~/utils/flash.server.ts';
import { parseWithZod } from '~/utils/form-parse.ts';
import { verifyTotpCode, type TotpFactor } from '~/utils/mfa.server.ts';
import { qrCodeDataUrl, secretOf } from '~/utils/qr-code.server.ts';
import { MfaConfirmSchema, MfaEnrolSchema, MfaRemoveSchema } from '~/utils/account-schemas.ts';
import type { RequestSupabase } from '~/utils/session/supabase.server.ts';
import { redirectWithSession } from '~/utils/session/user.server.ts';
import { ISSUER } from './enrolment.tsx';

const HERE = '/account/security/mfa';

export interface MfaRequest {
  request: Request;
  context: AppLoadContext;
  supabase: RequestSupabase['supabase'];
  userId: string;
  /** The user's apps, set up or not. */
  factors: TotpFactor[];
}

type Enrolment = Awaited<ReturnType<typeof enrolment>>;

/** Every answer has one shape, so the page can read any of them. */
function answer(
  intent: 'enrol' | 'confirm' | 'remove',
  result: SubmissionResult<string[]>,
  { enrolment = null, factorId = null }: { enrolment?: Enrolment | null; factorId?: string | null } = {},
  status = 200,
) {
  return json({ intent, result, enrolment, factorId }, { status });
}

const failedStatus = (code: string) => (code === 'backend_unavailable' ? 503 : 400);

async function enrolment(factorId: string, uri: string) {
  return { factorId, uri, secret: secretOf(uri), qrCode: await qrCodeDataUrl(uri) };
}

function defaultName(existing: TotpFactor[]): string {
  for (let n = 1; ; n++) {
    const name = n === 1 ? 'Authenticator app' : `Authenticator app ${n}`;
    if (!existing.some((f) => f.friendlyName === name)) return name;
  }
}

export async function enrol({ supabase, factors }: MfaRequest, formData: FormData) {
  const submission = parseWithZod(formData, { schema: MfaEnrolSchema });
  if (submission.status !== 'success') return answer('enrol', submission.reply(), {}, 400);
  // A setup that was never finished is abandoned: starting again discards it (and frees its name).
  for (const factor of factors.filter((f) => !f.verified))
    await supabase.auth.mfa.unenroll({ factorId: factor.id });
  const verified = factors.filter((f) => f.verified);
  const name = submission.value.name || defaultName(verified);
  if (verified.some((f) => f.friendlyName === name)) {
    const result = submission.reply({ fieldErrors: { name: ['You already have an app with that name.'] } });
    return answer('enrol', result, {}, 400);
  }
  const { data, error } = await supabase.auth.mfa.enroll({
    factorType: 'totp',
    friendlyName: name,
    issuer: ISSUER,
  });
  if (error) {
    const friendly = friendlyAuthError(error);
    return answer(
      'enrol',
      submission.reply({ formErrors: [friendly.message] }),
      {},
      failedStatus(friendly.code),
    );
  }
  return answer('enrol', submission.reply({ resetForm: true }), {
    enrolment: await enrolment(data.id, data.totp.uri),
  });
}

export async function confirm({ request, context, supabase, userId }: MfaRequest, formData: FormData) {
  const submission = parseWithZod(formData, { schema: MfaConfirmSchema });
  if (submission.status !== 'success') {
    const { factorId, uri } = Object.fromEntries(formData);
    const pending =
      typeof factorId === 'string' && typeof uri === 'string' && uri.startsWith('otpauth://totp/')
        ? await enrolment(factorId, uri)
        : null;
    return answer('confirm', submission.reply(), { enrolment: pending }, 400);
  }
  const { factorId, uri, code } = submission.value;
  const outcome = await verifyTotpCode(request, supabase, userId, [factorId], code);
  if (!outcome.ok) {
    const result = submission.reply({ fieldErrors: { code: [outcome.error.message] }, hideFields: ['code'] });
    return answer(
      'confirm',
      result,
      { enrolment: await enrolment(factorId, uri) },
      failedStatus(outcome.error.code),
    );
  }
  return redirectWithFlash(HERE, 'mfa_enrolled', request, context);
}

export async function remove(
  { request, context, supabase, userId, factors }: MfaRequest,
  formData: FormData,
) {
  const submission = parseWithZod(formData, { schema: MfaRemoveSchema });
  const factorId = typeof formData.get('factorId') === 'string' ? String(formData.get('factorId')) : null;
  if (submission.status !== 'success') return answer('remove', submission.reply(), { factorId }, 400);
  const target = factors.find((f) => f.id === submission.value.factorId);
  if (!target) return redirectWithSession(HERE, request, context);
  if (target.verified) {
    const { code } = submission.value;
    if (!code) {
      const result = submission.reply({
        fieldErrors: { code: ['Enter the 6-digit code from your authenticator app.'] },
      });
      return answer('remove', result, { factorId }, 400);
    }
    // The code may come from any of the user's apps (the one being removed may be lost).
    const others = factors.filter((f) => f.verified && f.id !== target.id).map((f) => f.id);
    const outcome = await verifyTotpCode(request, supabase, userId, [target.id, ...others], code);
    if (!outcome.ok) {
      const result = submission.reply({
        fieldErrors: { code: [outcome.error.message] },
        hideFields: ['code'],
      });
      return answer('remove', result, { factorId }, failedStatus(outcome.error.code));
    }
  }
  const { error } = await supabase.auth.mfa.unenroll({ factorId: target.id });
  if (error) {
    const friendly = friendlyAuthError(error);
    return answer(
      'remove',
      submission.reply({ formErrors: [friendly.message] }),
      { factorId },
      failedStatus(friendly.code),
    );
  }
  const stillOn = factors.some((f) => f.verified && f.id !== target.id);
  return redirectWithFlash(HERE, stillOn ? 'mfa_removed' : 'mfa_off', request, context);
}
