import { describe, expect, it } from 'vitest';
import { choicesFor, matches, placesOf, type Choice, type PaletteWorkspace } from './palette-choices.ts';

const workspace: PaletteWorkspace = {
  slug: 'acme',
  canCreate: true,
  projects: [
    { key: 'API', name: 'Backend', archived_at: null },
    { key: 'OLD', name: 'Legacy', archived_at: '2026-01-01T00:00:00Z' },
    { key: 'WEB', name: 'Website', archived_at: null },
  ],
};
const labels = (choices: Choice[]) => choices.map((c) => c.label);

describe('matches', () => {
  it.each([
    ['New task in WEB', 'new task', true],
    ['New task in WEB', 'new web', true],
    ['New task in WEB', 'NEW  T', true],
    ['Go to Website (WEB)', 'web', true],
    ['Go to Members', 'embers', false],
    ['New task in WEB', 'new bug', false],
    ['Go to Overview', '', true],
  ])('%s for “%s”: %s', (label, typed, wanted) => {
    expect(matches(label, typed.trim().toLowerCase())).toBe(wanted);
  });
});

describe('placesOf', () => {
  it('offers a new task in each active project, the one being looked at first', () => {
    const places = placesOf({ workspace }, 'web');
    expect(labels(places).filter((l) => l.startsWith('New task'))).toEqual([
      'New task in WEB',
      'New task in API',
    ]);
    expect(places[0]?.href).toBe('/w/acme/p/web?new=1');
    // An archived project is still a place to go, not one to add to.
    expect(labels(places)).toContain('Go to Legacy (OLD)');
  });

  it('keeps the projects’ order off a project’s pages, and offers no new task to a viewer', () => {
    expect(labels(placesOf({ workspace }, undefined)).slice(0, 2)).toEqual([
      'New task in API',
      'New task in WEB',
    ]);
    const viewer = placesOf({ workspace: { ...workspace, canCreate: false } }, 'web');
    expect(labels(viewer).some((l) => l.startsWith('New task'))).toBe(false);
  });

  it('outside a workspace offers the workspaces and the pages that need none', () => {
    const places = placesOf({ workspace: null, workspaces: [{ slug: 'acme', name: 'Acme' }] }, undefined);
    expect(places.map((c) => [c.label, c.href])).toEqual([
      ['Go to Inbox', '/inbox'],
      ['Go to Workspaces', '/w'],
      ['Go to Account', '/account'],
      ['Go to Acme', '/w/acme'],
    ]);
  });
});

describe('choicesFor', () => {
  const places = placesOf({ workspace }, undefined);
  const task = { id: 'task-1', label: 'WEB-3 New task form is slow', href: '/w/acme/p/web/t/3' };

  it('puts places named by what was typed before the tasks, the others after', () => {
    expect(labels(choicesFor(places, [task], 'new task', '/w/acme/search'))).toEqual([
      'New task in API',
      'New task in WEB',
      'WEB-3 New task form is slow',
      'Search for “new task”',
    ]);
    expect(labels(choicesFor(places, [task], 'web', '/w/acme/search'))).toEqual([
      'WEB-3 New task form is slow',
      'New task in WEB',
      'Go to Website (WEB)',
      'Search for “web”',
    ]);
  });

  it('offers every place while nothing is typed, and no search without a workspace', () => {
    expect(choicesFor(places, [], '  ', '/w/acme/search')).toEqual(places);
    expect(labels(choicesFor(placesOf({ workspace: null }, undefined), [], 'in', null))).toEqual([
      'Go to Inbox',
    ]);
  });

  it('sends the text as typed to the search page', () => {
    const last = choicesFor(places, [], 'a&b #2', '/w/acme/search').at(-1);
    expect(last).toEqual({
      id: 'search',
      label: 'Search for “a&b #2”',
      href: '/w/acme/search?q=a%26b%20%232',
    });
  });
});
