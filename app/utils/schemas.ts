// One zod schema per form of the public pages (sign-up, sign-in, codes, links, password reset), used by
// the action and, once JavaScript loads, by the browser. zod/mini: the same rules as zod, but
// tree-shakable, so the browser gets a few kB instead of 90. The signed-in pages' schemas are in
// account-schemas.ts and workspace-schemas.ts: a sign-in page ships only these.
import * as z from 'zod/mini';

// NUL and the other control characters (tab and line breaks aside) have no place in anything a
// person types; the database refuses NUL outright, so without this check they read as an outage.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** A check for every text field: no control characters. */
export const noControlCharacters = () =>
  z.refine<string>((value) => !CONTROL_CHARACTERS.test(value), {
    message: 'Remove the control characters (such as NUL) from this field.',
    abort: true,
  });

export const emailField = z.pipe(
  z
    .string({ error: 'Enter your email address.' })
    .check(z.trim(), z.toLowerCase(), noControlCharacters(), z.minLength(1, 'Enter your email address.')),
  z
    .string()
    .check(
      z.maxLength(254, 'Use at most 254 characters.'),
      z.email({ error: 'Enter a valid email address.' }),
    ),
);

export const passwordField = z
  .string({ error: 'Choose a password.' })
  .check(
    noControlCharacters(),
    z.minLength(8, 'Use 8 to 72 characters, and not your email address.'),
    z.maxLength(72, 'Use 8 to 72 characters, and not your email address.'),
  );

export const LoginSchema = z.object({
  email: emailField,
  password: z
    .string({ error: 'Enter your password.' })
    .check(noControlCharacters(), z.minLength(1, 'Enter your password.')),
  next: z.optional(z.string()),
});

export const SignupSchema = z.object({ email: emailField, password: passwordField }).check(
  z.refine((v) => v.password.toLowerCase() !== v.email, {
    path: ['password'],
    message: 'Use 8 to 72 characters, and not your email address.',
  }),
);

export const ResendSchema = z.object({ email: emailField });

export const CodeRequestSchema = z.object({ email: emailField });

export const CodeSchema = z.object({
  email: emailField,
  code: z
    .string({ error: 'Enter the 6-digit code from the email.' })
    .check(z.trim(), z.regex(/^\d{6}$/, 'Enter the 6-digit code from the email.')),
  next: z.optional(z.string()),
});

export const ForgotPasswordSchema = z.object({ email: emailField });

export const NewPasswordSchema = z.object({ password: passwordField });
