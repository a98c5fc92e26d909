import * as z from 'zod/mini';

/** The board's forms: a column's new task, and a card's move (task-card.tsx, card-menu.tsx, drag and drop). */
export const BoardIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('create') }),
  z.object({ intent: z.literal('move') }),
]);
