// One zod schema per form, used by the action and, once JavaScript loads, by the browser.
import { z } from 'zod';

export const emailField = z
  .string({ error: 'Enter your email address.' })
  .trim()
  .toLowerCase()
  .max(254, 'Use at most 254 characters.')
  .email('Enter a valid email address.');

export const LoginSchema = z.object({
  email: emailField,
  password: z.string({ error: 'Enter your password.' }).min(1, 'Enter your password.'),
  next: z.string().optional(),
});

const passwordField = z
  .string({ error: 'Choose a password.' })
  .min(8, 'Use 8 to 72 characters, and not your email address.')
  .max(72, 'Use 8 to 72 characters, and not your email address.');

export const SignupSchema = z
  .object({ email: emailField, password: passwordField })
  .refine((v) => v.password.toLowerCase() !== v.email, {
    path: ['password'],
    message: 'Use 8 to 72 characters, and not your email address.',
  });

export const ResendSchema = z.object({ email: emailField });

/** The kinds of email link /auth/confirm accepts, as GoTrue names them. */
export const EMAIL_LINK_TYPES = [
  'signup',
  'invite',
  'magiclink',
  'recovery',
  'email_change',
  'email',
] as const;

export const ConfirmSchema = z.object({
  token_hash: z.string().min(1).max(200),
  type: z.enum(EMAIL_LINK_TYPES),
  next: z.string().optional(),
});

export const CodeRequestSchema = z.object({ email: emailField });

export const CodeSchema = z.object({
  email: emailField,
  code: z
    .string({ error: 'Enter the 6-digit code from the email.' })
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from the email.'),
  next: z.string().optional(),
});

export const ForgotPasswordSchema = z.object({ email: emailField });

export const NewPasswordSchema = z.object({ password: passwordField });

export const ChangePasswordSchema = z.object({
  currentPassword: z.string({ error: 'Enter your current password.' }).min(1, 'Enter your current password.'),
  password: passwordField,
});

export const ChangeEmailSchema = z.object({ email: emailField });

export const DisplayNameSchema = z.object({
  displayName: z
    .string({ error: 'Enter a display name.' })
    .trim()
    .min(1, 'Enter a display name.')
    .max(50, 'Use at most 50 characters.'),
});
