const BASE = 'http://crewboard.local';

/** A path a browser reads as this site's own: one leading slash, then not a slash or backslash. */
function isLocalPath(path: string): boolean {
  return path.startsWith('/') && !/^\/[/\\]/.test(path) && !/[\u0000-\u001f\u007f\\]/.test(path);
}

/**
 * A `next`/`redirectTo` value is followed only when it is a same-site relative path: `/x`, never
 * `//x`, `/\x`, an absolute URL or another scheme. Anything else lands on `fallback`.
 *
 * Both what came in and what goes out are checked: the URL parser normalises dot segments and
 * percent-encoded dots, so `/.//evil`, `/x/..//evil` and `/%2e//evil` all come out as `//evil`,
 * which a browser follows to another host.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || to === '') return fallback;
  const value = to.trim();
  if (!isLocalPath(value)) return fallback;
  let resolved: URL;
  try {
    resolved = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (resolved.origin !== BASE) return fallback;
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  if (!isLocalPath(path)) return fallback;
  // What goes out must resolve to itself: a path that normalises again is not the one we checked.
  if (new URL(path, BASE).href !== resolved.href) return fallback;
  return path;
}
