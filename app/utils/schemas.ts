// One zod schema per form, used by the action and, once JavaScript loads, by the browser.
// zod/mini: the same rules as zod, but tree-shakable, so the browser gets a few kB instead of 90.
import * as z from 'zod/mini';

export const emailField = z.pipe(
  z
    .string({ error: 'Enter your email address.' })
    .check(z.trim(), z.toLowerCase(), z.minLength(1, 'Enter your email address.')),
  z
    .string()
    .check(
      z.maxLength(254, 'Use at most 254 characters.'),
      z.email({ error: 'Enter a valid email address.' }),
    ),
);

const passwordField = z
  .string({ error: 'Choose a password.' })
  .check(
    z.minLength(8, 'Use 8 to 72 characters, and not your email address.'),
    z.maxLength(72, 'Use 8 to 72 characters, and not your email address.'),
  );

export const LoginSchema = z.object({
  email: emailField,
  password: z.string({ error: 'Enter your password.' }).check(z.minLength(1, 'Enter your password.')),
  next: z.optional(z.string()),
});

export const SignupSchema = z.object({ email: emailField, password: passwordField }).check(
  z.refine((v) => v.password.toLowerCase() !== v.email, {
    path: ['password'],
    message: 'Use 8 to 72 characters, and not your email address.',
  }),
);

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
  token_hash: z.string().check(z.minLength(1), z.maxLength(200)),
  type: z.enum(EMAIL_LINK_TYPES),
  next: z.optional(z.string()),
});

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

export const ChangePasswordSchema = z.object({
  currentPassword: z
    .string({ error: 'Enter your current password.' })
    .check(z.minLength(1, 'Enter your current password.')),
  password: passwordField,
});

export const ChangeEmailSchema = z.object({
  email: emailField,
  currentPassword: z
    .string({ error: 'Enter your current password.' })
    .check(z.minLength(1, 'Enter your current password.')),
});

export const SecurityIntentSchema = z.enum([
  'password',
  'email',
  'others',
  'everywhere',
  'session',
  'delete-account',
]);

export const DisplayNameSchema = z.object({
  displayName: z
    .string({ error: 'Enter a display name.' })
    .check(z.trim(), z.minLength(1, 'Enter a display name.'), z.maxLength(50, 'Use at most 50 characters.')),
});

const workspaceName = z
  .string({ error: 'Enter a workspace name.' })
  .check(z.trim(), z.minLength(1, 'Enter a workspace name.'), z.maxLength(60, 'Use at most 60 characters.'));

export const WorkspaceSchema = z.object({
  name: z
    .string({ error: 'Enter a workspace name.' })
    .check(
      z.trim(),
      z.minLength(1, 'Enter a workspace name.'),
      z.maxLength(60, 'Use at most 60 characters.'),
    ),
  slug: z.string({ error: 'Choose an address.' }).check(
    z.trim(),
    z.toLowerCase(),
    z.regex(
      /^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/,
      'Use 3 to 40 lowercase letters, digits or hyphens, not starting or ending with a hyphen.',
    ),
    z.refine((s) => !RESERVED_SLUGS.includes(s), 'That address is reserved. Try another.'),
  ),
});

export const RESERVED_SLUGS = [
  'new',
  'settings',
  'members',
  'search',
  'invite',
  'account',
  'admin',
  'api',
  'w',
  'p',
  't',
];

export const ProjectSchema = z.object({
  name: z
    .string({ error: 'Enter a project name.' })
    .check(z.trim(), z.minLength(1, 'Enter a project name.'), z.maxLength(80, 'Use at most 80 characters.')),
  description: z.optional(z.string().check(z.trim(), z.maxLength(2000, 'Use at most 2,000 characters.'))),
});

export const TASK_STATUSES = ['backlog', 'todo', 'in_progress', 'done'] as const;

export const NewTaskSchema = z.object({
  title: z
    .string({ error: 'Enter a title.' })
    .check(z.trim(), z.minLength(1, 'Enter a title.'), z.maxLength(200, 'Use at most 200 characters.')),
  status: z.enum(TASK_STATUSES),
});

export const MoveTaskSchema = z.object({
  taskId: z.string().check(z.uuid()),
  status: z.enum(TASK_STATUSES),
  direction: z.optional(z.enum(['up', 'down'])),
  // Drag and drop names the neighbours of the slot it drops into.
  beforeTaskId: z.optional(z.string().check(z.uuid())),
  afterTaskId: z.optional(z.string().check(z.uuid())),
});

export const TASK_PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;

export const TaskEditSchema = z.object({
  title: z
    .string({ error: 'Enter a title.' })
    .check(z.trim(), z.minLength(1, 'Enter a title.'), z.maxLength(200, 'Use at most 200 characters.')),
  description: z.optional(z.string().check(z.maxLength(20000, 'Use at most 20,000 characters.'))),
  status: z.enum(TASK_STATUSES),
  priority: z.enum(TASK_PRIORITIES),
  assignee: z.optional(z.string().check(z.regex(/^$|^[0-9a-f-]{36}$/, 'Choose someone from the list.'))),
  dueDate: z.optional(
    z
      .string()
      .check(
        z.refine(
          (v) =>
            v === '' ||
            (/^\d{4}-\d{2}-\d{2}$/.test(v) &&
              !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
              new Date(`${v}T00:00:00Z`).toISOString().startsWith(v)),
          'Enter a real date.',
        ),
      ),
  ),
});

export const CommentSchema = z.object({
  body: z
    .string({ error: 'Write a comment.' })
    .check(z.trim(), z.minLength(1, 'Write a comment.'), z.maxLength(5000, 'Use at most 5,000 characters.')),
});

export const RenameWorkspaceSchema = z.object({ name: workspaceName });

export const WorkspaceSlugSchema = z.object({ slug: WorkspaceSchema.shape.slug });

export const TransferOwnershipSchema = z.object({
  newOwner: z.string({ error: 'Choose the new owner.' }).check(z.uuid({ error: 'Choose the new owner.' })),
});

export const DeleteWorkspaceSchema = z.object({
  confirm: z
    .string({ error: 'Type the workspace name to confirm.' })
    .check(z.trim(), z.minLength(1, 'Type the workspace name to confirm.')),
});

export const InviteSchema = z.object({
  email: emailField,
  role: z.enum(['viewer', 'member', 'admin'], { error: 'Choose a role.' }),
});

const totpCode = z
  .string({ error: 'Enter the 6-digit code from your authenticator app.' })
  .check(z.trim(), z.regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'));

const currentPassword = z
  .string({ error: 'Enter your current password.' })
  .check(z.minLength(1, 'Enter your current password.'));

/** The second step of signing in: a code from the authenticator app. */
export const MfaChallengeSchema = z.object({ code: totpCode, next: z.optional(z.string()) });

export const MfaEnrolSchema = z.object({
  name: z.optional(z.string().check(z.trim(), z.maxLength(50, 'Use at most 50 characters.'))),
});

/**
 * Finishing an enrolment: the pending factor, its otpauth URI (the auth server shows the secret only
 * once, so a wrong first code must be able to show the QR code again) and the first code.
 */
export const MfaConfirmSchema = z.object({
  factorId: z.string().check(z.uuid()),
  uri: z.string().check(z.maxLength(1000), z.startsWith('otpauth://totp/')),
  code: totpCode,
});

export const MfaRemoveSchema = z.object({
  factorId: z.string().check(z.uuid()),
  code: z.optional(totpCode),
});

export const SessionSignOutSchema = z.object({ sessionId: z.string().check(z.uuid()) });

export const DeleteAccountSchema = z.object({ currentPassword });
