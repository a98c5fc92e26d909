import * as z from 'zod/mini';
import { Uuid } from '~/utils/uuid.ts';

/**
 * The project settings' forms: its details and archiving, and its statuses (add one; change, move or
 * delete the one the form names).
 */
export const ProjectSettingsIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('details') }),
  z.object({ intent: z.literal('archive') }),
  z.object({ intent: z.literal('restore') }),
  z.object({ intent: z.literal('add-status') }),
  z.object({ intent: z.literal('edit-status'), statusId: Uuid }),
  z.object({ intent: z.literal('delete-status'), statusId: Uuid }),
  z.object({ intent: z.literal('move-status'), statusId: Uuid, direction: z.enum(['up', 'down']) }),
  // Drag and drop (JavaScript) drops a status at a place in the list.
  z.object({
    intent: z.literal('place-status'),
    statusId: Uuid,
    toIndex: z.string().check(z.regex(/^\d{1,2}$/)),
  }),
]);
