import { afterEach, beforeEach } from 'vitest';

// A test that makes something log an error has found a bug, even when its assertions pass.
//
// The guard is a plain function, not a vi.spyOn mock: `vi.restoreAllMocks()` (or `restoreMocks` in a
// config) in any test would restore a spy and so switch the guard off for the rest of its file. It is
// put back before every test, and a test that leaves console.error replaced fails.
const errors: unknown[][] = [];

export function guard(...args: unknown[]): void {
  errors.push(args);
}

/** What was logged since the last look, emptied: for the guard's own test. */
export function takeLoggedErrors(): unknown[][] {
  return errors.splice(0);
}

console.error = guard;

beforeEach(() => {
  console.error = guard;
});

afterEach(() => {
  const replaced = console.error !== guard;
  console.error = guard;
  if (errors.length > 0) {
    const logged = takeLoggedErrors().map((args) => args.map(String).join(' '));
    throw new Error(`console.error was called:\n${logged.join('\n')}`);
  }
  if (replaced) throw new Error('console.error was replaced and not put back: the guard was off');
});
