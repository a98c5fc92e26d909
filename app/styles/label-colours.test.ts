import { describe, expect, it } from 'vitest';
import { CHIP_CLASSES, LABEL_COLOURS } from './label-colours.ts';
import { contrast, schemeColours } from './palette.ts';

describe('label chips', () => {
  const colours = new Map(schemeColours().map((c) => [c.name, c]));
  /** The palette colour a chip's class names (`bg-red-100` → red-100). */
  const classColour = (classes: string, prefix: 'bg' | 'text') => {
    const name = new RegExp(`(?:^|\\s)${prefix}-([a-z]+-\\d+)(?:\\s|$)`).exec(classes)?.[1];
    const found = name ? colours.get(name) : undefined;
    if (!found) throw new Error(`no ${prefix} colour in "${classes}"`);
    return found;
  };

  it.each(LABEL_COLOURS)('%s reads at 4.5:1 or more in light and in dark mode', (colour) => {
    const background = classColour(CHIP_CLASSES[colour], 'bg');
    const text = classColour(CHIP_CLASSES[colour], 'text');
    expect(contrast(text.light, background.light)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(text.dark, background.dark)).toBeGreaterThanOrEqual(4.5);
  });

  it('each colour is its own', () => {
    const tints = LABEL_COLOURS.map((colour) => classColour(CHIP_CLASSES[colour], 'bg').name);
    expect(new Set(tints).size).toBe(LABEL_COLOURS.length);
    expect(tints.every((tint, i) => tint.startsWith(`${LABEL_COLOURS[i]}-`))).toBe(true);
  });
});
