import { describe, expect, it } from 'vitest';
import { daysLeft } from './trash.ts';

describe('daysLeft', () => {
  it('counts a part of a day as a day, and never goes below 0', () => {
    const now = '2026-11-28T12:00:00Z';
    expect(daysLeft('2026-12-28T12:00:00Z', now)).toBe(30);
    expect(daysLeft('2026-12-28T11:00:00Z', now)).toBe(30);
    expect(daysLeft('2026-11-28T12:00:01Z', now)).toBe(1);
    expect(daysLeft('2026-11-28T12:00:00Z', now)).toBe(0);
    expect(daysLeft('2026-11-20T12:00:00Z', now)).toBe(0);
  });
});
