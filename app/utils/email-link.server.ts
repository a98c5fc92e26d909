// What an email link carries to /auth/confirm. Only the server reads it (there is no form to check in
// the browser), so it stays out of the public pages' schemas and their JavaScript.
import * as z from 'zod/mini';

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
  // GoTrue's token hashes are hex, with a `pkce_` prefix for PKCE flows.
  token_hash: z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[\w-]+$/)),
  type: z.enum(EMAIL_LINK_TYPES),
  next: z.optional(z.string()),
});
