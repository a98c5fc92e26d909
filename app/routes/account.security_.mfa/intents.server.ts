import * as z from 'zod/mini';

/** The two-step page's forms: start setting up an app, confirm it with a first code, remove one. */
export const MfaIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('enrol') }),
  z.object({ intent: z.literal('confirm') }),
  z.object({ intent: z.literal('remove') }),
]);
