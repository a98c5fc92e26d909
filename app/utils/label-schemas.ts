// The labels page's forms (a label's name and colour), used by the action and, once JavaScript loads,
// by the browser. The database repeats the name rules as constraints (supabase/migrations/*_labels.sql).
import * as z from 'zod/mini';
import { LABEL_COLOURS } from '../styles/label-colours.ts';

// A name is one line: every control character is refused, tabs and line breaks too.
const LINE_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;

export const LABEL_NAME_MAX = 30;
export const LABELS_PER_WORKSPACE = 200;

export const LabelSchema = z.object({
  name: z.string({ error: 'Enter a label name.' }).check(
    z.trim(),
    z.refine((name) => !LINE_CONTROLS.test(name), {
      message: 'Remove the control characters (such as tabs or line breaks) from the name.',
      abort: true,
    }),
    z.minLength(1, 'Enter a label name.'),
    z.maxLength(LABEL_NAME_MAX, `Use at most ${LABEL_NAME_MAX} characters.`),
  ),
  color: z.enum(LABEL_COLOURS, { error: 'Choose a colour from the list.' }),
});
