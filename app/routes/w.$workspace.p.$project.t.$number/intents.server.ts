import * as z from 'zod/mini';
import { Uuid } from '~/utils/uuid.ts';

/**
 * The task panel's forms, each with the id it acts on. (Attaching a file is a multipart post; Watch and
 * Unwatch are read before these, being open to viewers: route.tsx.)
 */
export const TaskIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('save') }),
  z.object({ intent: z.literal('comment') }),
  z.object({ intent: z.literal('edit-comment'), commentId: Uuid }),
  z.object({ intent: z.literal('delete-comment'), commentId: Uuid }),
  z.object({ intent: z.literal('delete-attachment'), attachmentId: Uuid }),
  z.object({ intent: z.literal('delete-task') }),
  // The labels: all at once (the checkboxes, each a `label` field), or one at a time (the picker).
  z.object({ intent: z.literal('labels') }),
  z.object({ intent: z.literal('add-label'), labelId: Uuid }),
  z.object({ intent: z.literal('remove-label'), labelId: Uuid }),
  // Sub-tasks and links (structure.server.ts): the fields are read there, to keep what was typed.
  z.object({ intent: z.literal('add-subtask') }),
  z.object({ intent: z.literal('set-parent') }),
  z.object({ intent: z.literal('clear-parent') }),
  z.object({ intent: z.literal('add-link') }),
  z.object({ intent: z.literal('remove-link'), linkId: Uuid }),
  // A checklist box of the description: its value says the item, its new state and its text.
  z.object({ intent: z.literal('tick'), item: z.string() }),
]);
