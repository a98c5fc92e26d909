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
});
