import { describe, expect, it } from 'vitest';
import {
  keyFromName,
  nextProjectKey,
  overList,
  panelPath,
  PROJECT_KEY,
  projectPath,
  taskPath,
  taskRef,
} from './projects.ts';

describe('keyFromName', () => {
  it.each([
    ['Website relaunch', 'WEB'],
    ['Hiring', 'HIR'],
    ['Q3 marketing', 'Q3M'],
    ['2027 roadmap', 'ROA'],
    ['Émile’s café', 'EMI'],
    ['  a-b  ', 'AB'],
    ['x', 'PRJ'],
    ['42', 'PRJ'],
    ['日本語', 'PRJ'],
  ])('%s → %s', (name, key) => {
    expect(keyFromName(name)).toBe(key);
    expect(key).toMatch(PROJECT_KEY);
  });
});

describe('nextProjectKey', () => {
  it('is the suggestion when it is free', () => {
    expect(nextProjectKey('Website', ['HIR'])).toBe('WEB');
  });
  it('counts up past keys that are taken', () => {
    expect(nextProjectKey('Website', ['WEB', 'WEB2'])).toBe('WEB3');
  });
});

describe('addresses and names', () => {
  it('puts the key in lower case in addresses', () => {
    expect(projectPath('northwind', 'WEB')).toBe('/w/northwind/p/web');
    expect(taskPath('northwind', 'WEB', 12)).toBe('/w/northwind/p/web/t/12');
  });
  it("opens a task's panel over the board, or over the list where one is open already", () => {
    expect(panelPath('northwind', 'WEB', 12, false)).toBe('/w/northwind/p/web/t/12');
    expect(panelPath('northwind', 'WEB', 12, true)).toBe('/w/northwind/p/web/list/t/12');
    expect(overList('/w/northwind/p/web/list/t/12')).toBe(true);
    expect(overList('/w/northwind/p/web/t/12')).toBe(false);
    expect(overList('/w/northwind/p/list/t/12')).toBe(false);
  });
  it('names a task by its key and number', () => {
    expect(taskRef('WEB', 12)).toBe('WEB-12');
    expect(taskRef('web', 3)).toBe('WEB-3');
  });
});
