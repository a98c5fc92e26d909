/** `WEB-12` (any case, spaces around allowed): the project key and the number; null for anything else. */
export function parseTaskRef(typed: string): { key: string; number: number } | null {
  const match = /^\s*([A-Za-z][A-Za-z0-9]{1,9})-(\d{1,9})\s*$/.exec(typed);
  if (!match?.[1] || !match[2]) return null;
  return { key: match[1].toUpperCase(), number: Number(match[2]) };
}
