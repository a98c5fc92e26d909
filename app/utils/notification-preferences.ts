// The notification settings form (/account/notifications): the kinds ticked for the inbox and for
// email, and how often email may come. The kinds and frequencies are public.notification_preferences'
// (supabase/migrations/20261130100000_notifications.sql).
import * as z from 'zod/mini';

export const NOTIFICATION_KINDS = [
  'assigned',
  'mentioned',
  'commented',
  'status_changed',
  'added_to_workspace',
] as const;

export const EMAIL_FREQUENCIES = ['instant', 'hourly', 'daily', 'never'] as const;

const kinds = (where: string) =>
  z.pipe(
    z.optional(z.array(z.string())),
    z.transform((value, ctx) => {
      const list = value ?? [];
      if (!list.every((kind) => (NOTIFICATION_KINDS as readonly string[]).includes(kind))) {
        ctx.issues.push({ code: 'custom', input: value, message: `Choose ${where} from the list.` });
        return z.NEVER;
      }
      return [...new Set(list)] as Array<(typeof NOTIFICATION_KINDS)[number]>;
    }),
  );

export const NotificationPreferencesSchema = z.object({
  inbox: kinds('what goes to your inbox'),
  email: kinds('what comes by email'),
  frequency: z.enum(EMAIL_FREQUENCIES, { error: 'Choose how often email may come.' }),
});
