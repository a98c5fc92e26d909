// The guard of tests/setup/fail-on-console-error.ts stays on whatever a test does to its mocks.
import { describe, expect, it, vi } from 'vitest';
import { guard, takeLoggedErrors } from './fail-on-console-error.ts';

describe('the console.error guard', () => {
  it('still catches console.error after vi.restoreAllMocks()', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.restoreAllMocks();
    console.error('logged after restoring every mock');
    expect(takeLoggedErrors()).toEqual([['logged after restoring every mock']]);
  });

  it('is what a spy on console.error restores', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    console.error('swallowed by the spy');
    expect(spy).toHaveBeenCalledOnce();
    vi.restoreAllMocks();
    expect(console.error).toBe(guard);
  });
});
