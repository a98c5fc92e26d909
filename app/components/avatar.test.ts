import { describe, expect, it } from 'vitest';
import { AVATAR_COLOURS } from '../styles/avatar-colours.ts';
import { avatarColourIndex, initials } from './avatar.tsx';

describe('initials', () => {
  it('takes the first letters of the first and last words', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('grace brewster murray hopper')).toBe('GH');
    expect(initials('  ada  ')).toBe('A');
    expect(initials('ada.lovelace@example.test')).toBe('AT');
  });
  it('keeps letters outside the basic plane whole', () => {
    expect(initials('Émile Zola')).toBe('ÉZ');
    expect(initials('𝒜da')).toBe('𝒜');
  });
  it('has a stand-in for an empty name', () => {
    expect(initials('')).toBe('?');
  });
});

describe('avatarColourIndex', () => {
  it('gives a name the same colour every time, and names different colours', () => {
    expect(avatarColourIndex('Ada Lovelace')).toBe(avatarColourIndex('Ada Lovelace'));
    const names = ['Ada', 'Grace', 'Linus', 'Margaret', 'Ken', 'Barbara'];
    const colours = new Set(names.map(avatarColourIndex));
    expect(colours.size).toBeGreaterThan(3);
    for (const index of colours) expect(AVATAR_COLOURS[index]).toMatch(/^#[0-9a-f]{6}$/);
  });
});
