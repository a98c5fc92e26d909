// The labels page's forms (a label's name and colour), used by the action and, once JavaScript loads,
// by the browser. The database repeats the name rules as constraints (supabase/migrations/*_labels.sql).
import * as z from 'zod/mini';
import { LABEL_COLOURS } from '../styles/label-colours.ts';
import { shortName } from './workspace-schemas.ts';

export const LABEL_NAME_MAX = 30;
export const LABELS_PER_WORKSPACE = 200;

export const LabelSchema = z.object({
  name: shortName('Enter a label name.'),
  color: z.enum(LABEL_COLOURS, { error: 'Choose a colour from the list.' }),
});
