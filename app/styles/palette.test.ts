import { describe, expect, it } from 'vitest';
import { contrast, DARK_SURFACE, hexToRgb, luminance, schemeColours } from './palette.ts';

describe('the dark palette', () => {
  const colours = schemeColours();
  // Colours darker than the dark surface (black, the 950s, slate-900) would need twins brighter than
  // white; they become white, which keeps their pairs with light colours far above 4.5:1 but not
  // their rarer pairs with middle tones (black on indigo-500).
  const surface = luminance(hexToRgb(DARK_SURFACE));
  const mirrored = colours.filter((c) => luminance(c.light) >= surface);

  it('keeps every pair that reads in light mode (4.5:1 or more) readable in dark mode', () => {
    const lost: string[] = [];
    for (const a of mirrored)
      for (const b of mirrored) {
        if (a.name >= b.name || contrast(a.light, b.light) < 4.5) continue;
        const dark = contrast(a.dark, b.dark);
        if (dark < 4.5) lost.push(`${a.name} on ${b.name}: ${dark.toFixed(2)}`);
      }
    expect(lost).toEqual([]);
  });

  it('makes the darkest colours the lightest, readable on every dark background', () => {
    const named = (name: string) => colours.find((c) => c.name === name);
    const ink = named('slate-900');
    for (const background of ['white', 'slate-50', 'slate-100', 'slate-200', 'indigo-50', 'red-50']) {
      const dark = named(background)?.dark;
      expect(ink && dark && contrast(ink.dark, dark), background).toBeGreaterThan(12);
    }
    expect(named('white')?.dark.every((c) => c < 40)).toBe(true);
  });
});
