/** clerk-js's development-browser token: a `__clerk_db_jwt` query parameter and cookie (suffixed or not). */
const DEV_BROWSER_TOKEN = '__clerk_db_jwt';

/**
 * clerk-js 5.90.0 adopts a `__clerk_db_jwt` found in the page URL at start-up, replacing the token the
 * browser already holds. A link carrying someone else's token would then make this browser act as their
 * client (session fixation). A browser that has its own token keeps it: this returns the URL without the
 * parameter (to put in place before clerk-js reads it), or null when there is nothing to remove.
 * A browser without a token may take one from the URL, as with hosted Clerk; the identity provider gives
 * it a new one when it signs in.
 */
export function urlWithoutForeignDevBrowserToken(href: string, cookies: string): string | null {
  const url = new URL(href);
  if (!url.searchParams.has(DEV_BROWSER_TOKEN) || !holdsDevBrowserToken(cookies)) return null;
  url.searchParams.delete(DEV_BROWSER_TOKEN);
  return url.toString();
}

function holdsDevBrowserToken(cookies: string): boolean {
  return cookies.split(';').some((cookie) => {
    const [name = '', ...value] = cookie.trim().split('=');
    return (name === DEV_BROWSER_TOKEN || name.startsWith(`${DEV_BROWSER_TOKEN}_`)) && value.join('=') !== '';
  });
}

/** Applies the above to this page, before ClerkProvider loads clerk-js. */
export function keepOwnDevBrowserToken(): void {
  const cleaned = urlWithoutForeignDevBrowserToken(window.location.href, document.cookie);
  if (cleaned) window.history.replaceState(window.history.state, '', cleaned);
}
