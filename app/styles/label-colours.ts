/**
 * The colours a label may have: the same names the database's check allows (labels_color_in_palette
 * in supabase/migrations). Each chip is dark text on a light tint of its colour; palette.ts turns both
 * into their dark-mode twins, which keep the contrast (label-colours.test.ts: 4.5:1 or more in each).
 */
export const LABEL_COLOURS = [
  'gray',
  'red',
  'orange',
  'yellow',
  'green',
  'teal',
  'blue',
  'indigo',
  'purple',
  'pink',
] as const;

export type LabelColour = (typeof LABEL_COLOURS)[number];

/** A chip's classes, spelled out whole so that Tailwind's scan of the sources finds every one. */
export const CHIP_CLASSES: Record<LabelColour, string> = {
  gray: 'bg-gray-100 text-gray-800',
  red: 'bg-red-100 text-red-800',
  orange: 'bg-orange-100 text-orange-800',
  yellow: 'bg-yellow-100 text-yellow-800',
  green: 'bg-green-100 text-green-800',
  teal: 'bg-teal-100 text-teal-800',
  blue: 'bg-blue-100 text-blue-800',
  indigo: 'bg-indigo-100 text-indigo-800',
  purple: 'bg-purple-100 text-purple-800',
  pink: 'bg-pink-100 text-pink-800',
};

export const isLabelColour = (value: unknown): value is LabelColour =>
  LABEL_COLOURS.some((colour) => colour === value);

/** The colour's name as a menu shows it: `Gray`. */
export const colourName = (colour: LabelColour) => colour[0]?.toUpperCase() + colour.slice(1);
