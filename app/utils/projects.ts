// A project's key (`WEB`) and the addresses and task names made from it. Every project URL
// is built here, so the scheme has one home: `/w/<workspace>/p/<key in lower case>`, tasks under
// `/t/<number>`, and a task is called `WEB-12`. Pure, for the server and the browser alike.

/** A key: two to ten capital letters and digits, starting with a letter (the database checks it too). */
export const PROJECT_KEY = /^[A-Z][A-Z0-9]{1,9}$/;

/**
 * The key a name suggests: its first three letters and digits, accents dropped, leading digits
 * skipped ("Website relaunch" → WEB, "2027 roadmap" → ROA); PRJ when that leaves fewer than two.
 * The same rule as `public.project_key_from_name`, which keys projects made without one.
 */
export function keyFromName(name: string): string {
  const letters = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/^[0-9]+/, '');
  return letters.length >= 2 ? letters.slice(0, 3) : 'PRJ';
}

/** The first key free among `taken` for a name: its suggestion, else with 2, 3, … after it. */
export function nextProjectKey(name: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const base = keyFromName(name);
  let candidate = base;
  for (let n = 2; used.has(candidate); n++) candidate = `${base}${n}`;
  return candidate;
}

/** A board's address. */
export function projectPath(workspaceSlug: string, projectKey: string): string {
  return `/w/${workspaceSlug}/p/${projectKey.toLowerCase()}`;
}

/** The board's query parameter that opens its new-task form, title focused (`?new=1`). */
export const NEW_TASK_PARAM = 'new';

/** A board with its new-task form open and its title focused, ready to type. */
export function newTaskPath(workspaceSlug: string, projectKey: string): string {
  return `${projectPath(workspaceSlug, projectKey)}?${NEW_TASK_PARAM}=1`;
}

/** A project's list view. */
export function listPath(workspaceSlug: string, projectKey: string): string {
  return `${projectPath(workspaceSlug, projectKey)}/list`;
}

/** A task's address: its panel, over its board. */
export function taskPath(workspaceSlug: string, projectKey: string, taskNumber: number): string {
  return `${projectPath(workspaceSlug, projectKey)}/t/${taskNumber}`;
}

/** Whether a task panel's address is the one over the list (`…/list/t/12`) rather than the board. */
export function overList(pathname: string): boolean {
  return /^\/w\/[^/]+\/p\/[^/]+\/list\/t\/[^/]+$/.test(pathname);
}

/** A task's panel over the board or, when `list`, over its project's list. */
export function panelPath(
  workspaceSlug: string,
  projectKey: string,
  taskNumber: number,
  list: boolean,
): string {
  return list
    ? `${listPath(workspaceSlug, projectKey)}/t/${taskNumber}`
    : taskPath(workspaceSlug, projectKey, taskNumber);
}

/** A task's name: `WEB-12`. */
export function taskRef(projectKey: string, taskNumber: number): string {
  return `${projectKey.toUpperCase()}-${taskNumber}`;
}
