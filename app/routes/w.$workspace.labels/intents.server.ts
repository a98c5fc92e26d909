import * as z from 'zod/mini';
import { Uuid } from '~/utils/uuid.ts';

/** The labels page's forms: a new label, and changing or deleting one by its id. */
export const LabelsIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('create') }),
  z.object({ intent: z.literal('update'), id: Uuid }),
  z.object({ intent: z.literal('delete'), id: Uuid }),
]);
