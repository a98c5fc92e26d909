import { describe, expect, it } from 'vitest';
import { avatarColour, initials } from './avatar.tsx';

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

describe('avatarColour', () => {
  it('gives a name the same colour every time, and names different colours', () => {
    expect(avatarColour('Ada Lovelace')).toBe(avatarColour('Ada Lovelace'));
    const colours = new Set(['Ada', 'Grace', 'Linus', 'Margaret', 'Ken', 'Barbara'].map(avatarColour));
    expect(colours.size).toBeGreaterThan(3);
  });
});
