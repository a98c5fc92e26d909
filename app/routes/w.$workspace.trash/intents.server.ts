import * as z from 'zod/mini';
import { Uuid } from '~/utils/uuid.ts';

/**
 * The trash page's one form: restoring a task by its id (also the board's Undo). Server-only: a schema
 * built at a module's top level stays in the browser's bundle even when only the action uses it.
 */
export const TrashIntent = z.object({ intent: z.literal('restore'), taskId: Uuid });
