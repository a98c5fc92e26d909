/**
 * A person's face: their uploaded picture, or their initials on a colour that comes from their
 * name (the same name always gets the same colour, on every screen). The name is the accessible
 * text unless `decorative` says the name is written next to it already.
 */
import { AVATAR_COLOURS } from '../styles/avatar-colours.ts';

export function initials(name: string): string {
  const words = name
    .trim()
    .split(/[\s._@-]+/u)
    .filter(Boolean);
  const first = [...(words[0] ?? '?')][0] ?? '?';
  const last = words.length > 1 ? ([...(words[words.length - 1] ?? '')][0] ?? '') : '';
  return (first + last).toUpperCase();
}

/** Which of AVATAR_COLOURS a name gets (its class is `avatar-c<index>`). */
export function avatarColourIndex(name: string): number {
  // FNV-1a over the UTF-16 code units: stable, cheap, well spread for short strings.
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % AVATAR_COLOURS.length;
}

/** The box, shape and type of each size: app/tailwind.css (`.avatar`), one class a face. */
const SIZES = {
  sm: 'avatar avatar-sm',
  md: 'avatar avatar-md',
  lg: 'avatar avatar-lg',
} as const;

/**
 * One element however it is drawn (a board draws one a card): the picture, or the initials on their
 * colour. `title` is its tooltip. `className`, when given, is used in place of the size's classes: a
 * class of app/tailwind.css that applies `avatar` and a size itself (a card's `assignee`), so a board
 * sends one short class a face.
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
  const classes = className ?? SIZES[size];
  if (url) {
    return <img src={url} alt={decorative ? '' : name} title={title} className={classes} loading="lazy" />;
  }
  return (
    <span
      className={`${classes} avatar-c${avatarColourIndex(name)}`}
      title={title}
      {...(decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': name })}
    >
      {initials(name)}
    </span>
  );
}
