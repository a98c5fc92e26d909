/**
 * The statuses with one of them dropped at `toIndex` (counted without it, clamped to the ends): the
 * order a drag shows while the database saves it, as move_project_status places it.
 */
export function placeStatus<T extends { id: string }>(statuses: T[], id: string, toIndex: number): T[] {
  const moving = statuses.find((s) => s.id === id);
  if (!moving) return statuses;
  const rest = statuses.filter((s) => s.id !== id);
  const at = Math.max(0, Math.min(toIndex, rest.length));
  return [...rest.slice(0, at), moving, ...rest.slice(at)];
}
