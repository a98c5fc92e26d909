import * as z from 'zod/mini';

/** The settings page's forms: the workspace's name and address (admins), its owner and its end (the owner). */
export const SettingsIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('rename') }),
  z.object({ intent: z.literal('slug') }),
  z.object({ intent: z.literal('transfer') }),
  z.object({ intent: z.literal('delete') }),
]);
