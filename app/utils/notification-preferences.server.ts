// The notification settings form (/account/notifications): the kinds ticked for the inbox and for
// email, and how often email may come. Checked on the server only: the browser can only send what the
// checkboxes and radio buttons offer, so a wrong value is a forged one.
import * as z from 'zod/mini';
import { EMAIL_FREQUENCIES, NOTIFICATION_KINDS } from './notification-preferences.ts';

const kinds = (where: string) =>
  z.optional(z.array(z.enum(NOTIFICATION_KINDS, { error: `Choose ${where} from the list.` })));

export const NotificationPreferencesSchema = z.object({
  inbox: kinds('what goes to your inbox'),
  email: kinds('what comes by email'),
  frequency: z.enum(EMAIL_FREQUENCIES, { error: 'Choose how often email may come.' }),
});
