// One zod schema per form of the signed-in account pages (profile, security, MFA, devices), used by
// the action and, once JavaScript loads, by the browser.
import * as z from 'zod/mini';
import { emailField, noControlCharacters, passwordField } from './schemas.ts';
import { Uuid } from './uuid.ts';

export const ChangePasswordSchema = z.object({
  currentPassword: z
    .string({ error: 'Enter your current password.' })
    .check(noControlCharacters(), z.minLength(1, 'Enter your current password.')),
  password: passwordField,
});

export const ChangeEmailSchema = z.object({
  email: emailField,
  currentPassword: z
    .string({ error: 'Enter your current password.' })
    .check(noControlCharacters(), z.minLength(1, 'Enter your current password.')),
});

export const DisplayNameSchema = z.object({
  displayName: z
    .string({ error: 'Enter a display name.' })
    .check(
      z.trim(),
      noControlCharacters(),
      z.minLength(1, 'Enter a display name.'),
      z.maxLength(50, 'Use at most 50 characters.'),
    ),
});

const totpCode = z
  .string({ error: 'Enter the 6-digit code from your authenticator app.' })
  .check(z.trim(), z.regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'));

const currentPassword = z
  .string({ error: 'Enter your current password.' })
  .check(noControlCharacters(), z.minLength(1, 'Enter your current password.'));

/** The second step of signing in: a code from the authenticator app. */
export const MfaChallengeSchema = z.object({ code: totpCode, next: z.optional(z.string()) });

export const MfaEnrolSchema = z.object({
  name: z.optional(
    z.string().check(z.trim(), noControlCharacters(), z.maxLength(50, 'Use at most 50 characters.')),
  ),
});

/**
 * Finishing an enrolment: the pending factor, its otpauth URI (the auth server shows the secret only
 * once, so a wrong first code must be able to show the QR code again) and the first code.
 */
export const MfaConfirmSchema = z.object({
  factorId: Uuid,
  uri: z.string().check(noControlCharacters(), z.maxLength(1000), z.startsWith('otpauth://totp/')),
  code: totpCode,
});

export const MfaRemoveSchema = z.object({
  factorId: Uuid,
  code: z.optional(totpCode),
});

export const SessionSignOutSchema = z.object({ sessionId: Uuid });

export const DeleteAccountSchema = z.object({ currentPassword });
