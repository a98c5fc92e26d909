const DAY_MS = 86_400_000;

/** Whole days until `purgeAt`, counting a part of a day as a day; never below 0. */
export function daysLeft(purgeAt: string, now: string): number {
  return Math.max(0, Math.ceil((Date.parse(purgeAt) - Date.parse(now)) / DAY_MS));
}
