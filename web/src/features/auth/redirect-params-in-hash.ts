/** The redirect parameters clerk-js's `<SignIn/>` and `<SignUp/>` read from their route's query (RedirectUrls). */
const REDIRECT_PARAMS = [
  'redirect_url',
  'sign_in_force_redirect_url',
  'sign_in_fallback_redirect_url',
  'sign_up_force_redirect_url',
  'sign_up_fallback_redirect_url',
] as const;

export interface PageAddress {
  search: string;
  hash: string;
}

/**
 * Hash-routed, `<SignIn/>` and `<SignUp/>` read their redirect parameters from the hash's query only
 * (`/sign-in#/?redirect_url=…`, the form clerk-js's own redirectToSignIn builds). Written as most links write
 * them, `/sign-in?redirect_url=…` (Clerk's own integration tests too), they were ignored: the person landed on
 * the default page, and the email link, which carries the card's parameters, lost them as well.
 *
 * Returns the address with those parameters moved into the hash's query (one already there wins), or null
 * when there is none to move. clerk-js's own query parameters (`__clerk_status`, `__clerk_ticket`…) stay
 * where it reads them, in the real query. Only a hash route (`#/…`) is kept.
 */
export function redirectParamsMovedToHash(address: PageAddress): PageAddress | null {
  const search = new URLSearchParams(address.search);
  const moving = REDIRECT_PARAMS.filter((name) => search.has(name));
  if (moving.length === 0) return null;
  const route = address.hash.startsWith('#/') ? address.hash.slice(1) : '/';
  const queryAt = route.indexOf('?');
  const path = queryAt === -1 ? route : route.slice(0, queryAt);
  const hashQuery = new URLSearchParams(queryAt === -1 ? '' : route.slice(queryAt + 1));
  for (const name of moving) {
    if (!hashQuery.has(name)) hashQuery.set(name, search.get(name)!);
    search.delete(name);
  }
  const rest = search.toString();
  const query = hashQuery.toString();
  return { search: rest ? `?${rest}` : '', hash: `#${path}${query ? `?${query}` : ''}` };
}
