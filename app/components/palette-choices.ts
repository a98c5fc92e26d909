// What the command palette offers (app/components/command-palette.tsx), worked out from the page
// and the words typed. Pure, so the order and matching are tested without a browser.
import { newTaskPath, projectPath } from '../utils/projects.ts';

export interface Choice {
  id: string;
  label: string;
  href: string;
}

/** The workspace a page is in: its tasks are searched, its pages and projects offered. */
export interface PaletteWorkspace {
  slug: string;
  projects: Array<{ key: string; name: string; archived_at: string | null }>;
  /** The caller may make tasks there (a member or more). */
  canCreate: boolean;
}

export interface PaletteProps {
  /** None on the pages outside a workspace (the workspaces, the inbox): no task search there. */
  workspace: PaletteWorkspace | null;
  /** The caller's workspaces, offered by name where the page knows them. */
  workspaces?: Array<{ slug: string; name: string }>;
}

/** Whether every word typed starts a word of `label` ("new web" finds "New task in WEB"). */
export function matches(label: string, wanted: string): boolean {
  const words = label.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  return wanted.split(/\s+/).every((typed) => words.some((word) => word.startsWith(typed)));
}

/** The pages, actions and places the palette offers before anything is typed. */
export function placesOf(
  { workspace, workspaces = [] }: PaletteProps,
  currentProject: string | undefined,
): Choice[] {
  const places: Choice[] = [];
  if (workspace) {
    const base = `/w/${workspace.slug}`;
    // The project whose pages these are first: "New task" then makes a task where one is looking.
    const active = workspace.projects
      .filter((p) => p.archived_at === null)
      .sort(
        (a, b) =>
          Number(b.key.toLowerCase() === currentProject) - Number(a.key.toLowerCase() === currentProject),
      );
    if (workspace.canCreate)
      for (const p of active)
        places.push({
          id: `new-${p.key}`,
          label: `New task in ${p.key}`,
          href: newTaskPath(workspace.slug, p.key),
        });
    places.push(
      { id: 'overview', label: 'Go to Overview', href: base },
      { id: 'members', label: 'Go to Members', href: `${base}/members` },
      { id: 'labels', label: 'Go to Labels', href: `${base}/labels` },
      { id: 'settings', label: 'Go to Settings', href: `${base}/settings` },
      ...workspace.projects.map((p) => ({
        id: `project-${p.key}`,
        label: `Go to ${p.name} (${p.key})`,
        href: projectPath(workspace.slug, p.key),
      })),
    );
  }
  places.push(
    { id: 'inbox', label: 'Go to Inbox', href: '/inbox' },
    { id: 'workspaces', label: 'Go to Workspaces', href: '/w' },
    { id: 'account', label: 'Go to Account', href: '/account' },
    ...workspaces.map((w) => ({ id: `workspace-${w.slug}`, label: `Go to ${w.name}`, href: `/w/${w.slug}` })),
  );
  return places;
}

/**
 * The choices for `text`: the places whose names begin with what was typed ("new task" is the
 * action), then the tasks found, then the other places that match, then the search page. The first
 * ones stay first as the tasks arrive; while nothing is typed every place leads.
 */
export function choicesFor(places: Choice[], tasks: Choice[], text: string, search: string | null): Choice[] {
  const wanted = text.trim().toLowerCase();
  const matching = places.filter((c) => matches(c.label, wanted));
  const leading = matching.filter((c) => c.label.toLowerCase().startsWith(wanted));
  return [
    ...leading,
    ...tasks,
    ...matching.filter((c) => !leading.includes(c)),
    ...(wanted === '' || !search
      ? []
      : [
          {
            id: 'search',
            label: `Search for “${text.trim()}”`,
            href: `${search}?q=${encodeURIComponent(text)}`,
          },
        ]),
  ];
}
