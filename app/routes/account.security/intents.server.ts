import * as z from 'zod/mini';

/**
 * The security page's forms: signing out one device, the others, or everywhere; and the changes to
 * the account itself, each behind the current password.
 */
export const SecurityIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('session') }),
  z.object({ intent: z.literal('others') }),
  z.object({ intent: z.literal('everywhere') }),
  z.object({ intent: z.literal('password') }),
  z.object({ intent: z.literal('email') }),
  z.object({ intent: z.literal('delete-account') }),
]);

export type SecurityIntent = z.infer<typeof SecurityIntent>['intent'];
