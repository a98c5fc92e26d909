/**
 * A person's face: their uploaded picture, or their initials on a colour that comes from their
 * name (the same name always gets the same colour, on every screen). The name is the accessible
 * text unless `decorative` says the name is written next to it already.
 */

/** Backgrounds with white text at 4.5:1 or more, in light and dark mode alike. */
const COLOURS = [
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

export function initials(name: string): string {
  const words = name
    .trim()
    .split(/[\s._@-]+/u)
    .filter(Boolean);
  const first = [...(words[0] ?? '?')][0] ?? '?';
  const last = words.length > 1 ? ([...(words[words.length - 1] ?? '')][0] ?? '') : '';
  return (first + last).toUpperCase();
}

export function avatarColour(name: string): string {
  // FNV-1a over the UTF-16 code units: stable, cheap, well spread for short strings.
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return COLOURS[(hash >>> 0) % COLOURS.length] ?? COLOURS[0];
}

/** The box, shape and type of each size: app/tailwind.css (`.avatar`), one class a face. */
const SIZES = {
  sm: 'avatar avatar-sm',
  md: 'avatar avatar-md',
  lg: 'avatar avatar-lg',
} as const;

/**
 * One element however it is drawn (a board draws one a card): the picture, or the initials on their
 * colour. `title` is its tooltip; `className` adds classes for where it sits.
 */
export function Avatar({
  name,
  url,
  size = 'sm',
  decorative = false,
  title,
  className,
}: {
  name: string;
  url?: string | null;
  size?: keyof typeof SIZES;
  decorative?: boolean;
  title?: string;
  className?: string;
}) {
  const classes = className ? `${SIZES[size]} ${className}` : SIZES[size];
  if (url) {
    return <img src={url} alt={decorative ? '' : name} title={title} className={classes} loading="lazy" />;
  }
  return (
    <span
      className={classes}
      style={{ backgroundColor: avatarColour(name) }}
      title={title}
      {...(decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': name })}
    >
      {initials(name)}
    </span>
  );
}
