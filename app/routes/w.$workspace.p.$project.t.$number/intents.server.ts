import * as z from 'zod/mini';
import { Uuid } from '~/utils/uuid.ts';

/** The task panel's forms, each with the id it acts on. (Attaching a file is a multipart post.) */
export const TaskIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('save') }),
  z.object({ intent: z.literal('comment') }),
  z.object({ intent: z.literal('edit-comment'), commentId: Uuid }),
  z.object({ intent: z.literal('delete-comment'), commentId: Uuid }),
  z.object({ intent: z.literal('delete-attachment'), attachmentId: Uuid }),
  z.object({ intent: z.literal('delete-task') }),
]);
