import * as z from 'zod/mini';
import { Uuid } from '~/utils/uuid.ts';

/**
 * The members page's forms: inviting someone, and acting on one invitation or member by its id (the
 * invitation's, or the member's user id; leaving names oneself).
 */
export const MembersIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('invite') }),
  z.object({ intent: z.literal('resend'), id: Uuid }),
  z.object({ intent: z.literal('revoke'), id: Uuid }),
  z.object({ intent: z.literal('role'), id: Uuid }),
  z.object({ intent: z.literal('remove'), id: Uuid }),
  z.object({ intent: z.literal('leave'), id: Uuid }),
]);
