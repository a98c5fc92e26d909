import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirect.ts';

describe('safeRedirect', () => {
  it('keeps same-site paths with their query and fragment', () => {
    expect(safeRedirect('/account')).toBe('/account');
    expect(safeRedirect('/w/acme?tab=members#top')).toBe('/w/acme?tab=members#top');
  });

  it.each([
    '//evil.example',
    '/\\evil',
    'https://evil',
    'javascript:alert(1)',
    'evil',
    '/\t/evil.example',
    ' //evil',
    '',
    null,
    undefined,
  ])('sends %j to the fallback', (value) => {
    expect(safeRedirect(value, '/home')).toBe('/home');
  });

  // Values that pass a check of the raw string but normalise into another host.
  const hostile = [
    '/.//evil.example',
    '/x/..//evil.example',
    '/%2e//evil.example',
    '/%2E//evil.example',
    '/%2e%2e//evil.example',
    '/a/b/../..//evil.example',
    '/./\\evil.example',
    '/%2e/\\evil.example',
    '/.\\/evil.example',
    '/x/../\\evil.example',
    '/\t/evil.example',
    '/.\t//evil.example',
    '/\n/evil.example',
    '/.//\nevil.example',
    '/\r\n//evil.example',
    '/\u0000//evil.example',
    '\t//evil.example',
    '/%09/evil.example',
    '/.%2f/evil.example',
    '/./%2fevil.example',
  ];

  it.each(hostile)('never turns %j into a path that leaves the site', (value) => {
    const out = safeRedirect(value, '/home');
    expect(out.startsWith('/')).toBe(true);
    expect(out).not.toMatch(/^\/[\/\\]/);
    // A browser resolving the Location header stays on this site.
    expect(new URL(out, 'https://crewboard.test/login').host).toBe('crewboard.test');
  });

  it.each(['/.//evil.example', '/x/..//evil.example', '/%2e//evil.example', '/./\\evil.example'])(
    'sends %j to the fallback instead of a normalised //host',
    (value) => {
      expect(safeRedirect(value, '/home')).toBe('/home');
    },
  );

  it('keeps harmless encoded slashes as they are', () => {
    expect(safeRedirect('/w/%2F%2Fevil')).toBe('/w/%2F%2Fevil');
  });
});
