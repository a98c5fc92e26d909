import { useEffect, useState } from 'react';

/**
 * False in the server's render and the browser's first (so hydration matches), true from then on:
 * for what exists only once the page runs JavaScript (drag and drop, a menu button, the schema's own
 * error messages in place of the browser's).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
