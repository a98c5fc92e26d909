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
