/** The product API and the operator console's API: every path under them needs the session token (the server verifies it). */
export const PRODUCT_PROTECTED_URLS: readonly string[] = ['/api/', '/console/api/'];

/**
 * Whether `url` is on the protected list. Patterns are path prefixes resolved against the page origin,
 * matched on whole segments (`/api` matches `/api` and `/api/me`, not `/apiary`). A URL on any other
 * origin never matches, whatever its path, and so does a pattern that resolves to another origin.
 */
export function matchesProtectedUrl(url: URL | null, patterns: readonly string[], origin: string): boolean {
  if (!url || url.origin !== origin) return false;
  return patterns.some((pattern) => {
    let prefix: URL;
    try {
      prefix = new URL(pattern, origin);
    } catch {
      return false;
    }
    if (prefix.origin !== origin) return false;
    const path = prefix.pathname;
    if (path.endsWith('/')) return url.pathname.startsWith(path);
    return url.pathname === path || url.pathname.startsWith(`${path}/`);
  });
}
