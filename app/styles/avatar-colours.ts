/**
 * The colours of initials avatars (components/avatar.tsx): backgrounds with white text at 4.5:1 or
 * more, in light and dark mode alike. tailwind.config.ts makes a class of each (`avatar-c0` …), so a
 * face on the page is a short class rather than an inline style.
 */
export const AVATAR_COLOURS = [
  '#b91c1c', // red-700
  '#c2410c', // orange-700
  '#a16207', // yellow-700
  '#15803d', // green-700
  '#0f766e', // teal-700
  '#0369a1', // sky-700
  '#4338ca', // indigo-700
  '#7e22ce', // purple-700
  '#be185d', // pink-700
  '#475569', // slate-600
] as const;
