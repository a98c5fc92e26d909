/**
 * A `next`/`redirectTo` value is followed only when it is a same-site relative path: `/x`, never
 * `//x`, `/\x`, an absolute URL or another scheme. Anything else lands on `fallback`.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || to === '') return fallback;
  const value = to.trim();
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  // Control characters and backslashes anywhere can be normalised by browsers into another host.
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  try {
    const resolved = new URL(value, 'http://crewboard.local');
    if (resolved.origin !== 'http://crewboard.local') return fallback;
    return `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return fallback;
  }
}
