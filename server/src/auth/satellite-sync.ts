import type { ClerkClient } from '@clerk/backend';
import type { FastifyRequest } from 'fastify';

/** The product's sign-in page, which a development satellite's server names as its `signInUrl`. */
export const SIGN_IN_PATH = '/sign-in';
/** @clerk/backend 2.10.1's query parameter naming the satellite page to go back to. */
const CLERK_REDIRECT_URL = '__clerk_redirect_url';
/** @clerk/backend 2.10.1's reason for the primary's answer (AuthErrorReason.PrimaryRespondsToSyncing). */
const PRIMARY_RESPONDS_TO_SYNCING = 'primary-responds-to-syncing';

export interface SatelliteSyncOptions {
  /** The instance's keys: only a development instance (`pk_test_`) answers. */
  publishableKey: string;
  /** The product's public origin (`PUBLIC_URL`), the page's URL as the SDK sees it. */
  publicUrl: string;
  /** The Backend API client of the product (its `authenticateRequest`). */
  clerk: () => ClerkClient;
  /** The satellite domains' exact origins, now (the instance settings). */
  satelliteOrigins: () => readonly string[];
}

/**
 * The primary's half of @clerk/backend 2.10.1's development sync (`primary-responds-to-syncing`,
 * docs/satellites.md): a development satellite's server sends a signed-out page load to
 * `<product>/sign-in?__clerk_redirect_url=<its page>`, and the primary's server answers `307` to that page
 * with its dev-browser token (`__clerk_db_jwt`, from the browser's cookie here) and `__clerk_synced=true`, as
 * a Clerk server SDK's middleware does. The SDK itself sends the browser wherever `__clerk_redirect_url`
 * says, token included, so the page is first checked to be exactly on a satellite's origin; and the SDK
 * sees only that parameter of the query (the browser's cookie is its only source of the token).
 *
 * Returns the answer's headers (`Location`, `Cache-Control`, its loop guard's `Set-Cookie`), or null when
 * the request is not such a sync: the page is then served as always.
 */
export function satelliteSync(opts: SatelliteSyncOptions) {
  const development = opts.publishableKey.startsWith('pk_test_');
  return async (req: FastifyRequest): Promise<Headers | null> => {
    if (!development || req.method !== 'GET') return null;
    const target = satellitePage(req.url, opts.satelliteOrigins());
    if (!target) return null;
    const headers = new Headers();
    for (const name of ['cookie', 'accept', 'sec-fetch-dest', 'user-agent'] as const) {
      const value = req.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    const url = new URL(SIGN_IN_PATH, opts.publicUrl);
    url.searchParams.set(CLERK_REDIRECT_URL, target.href);
    let state;
    try {
      state = await opts.clerk().authenticateRequest(new Request(url, { headers }));
    } catch {
      return null;
    }
    const location = state.headers.get('location');
    if (state.reason !== PRIMARY_RESPONDS_TO_SYNCING || !location) return null;
    // What the SDK built from the checked page: on no other origin, whatever it does.
    if (new URL(location).origin !== target.origin) return null;
    return state.headers;
  };
}

/**
 * The page of `__clerk_redirect_url`, when the query names exactly one and it is an absolute http(s) URL
 * without userinfo exactly on a satellite origin (no subdomain, other port or scheme); otherwise null.
 */
function satellitePage(requestUrl: string, satelliteOrigins: readonly string[]): URL | null {
  const start = requestUrl.indexOf('?');
  const query = new URLSearchParams(start < 0 ? '' : requestUrl.slice(start + 1));
  const values = query.getAll(CLERK_REDIRECT_URL);
  if (values.length !== 1) return null;
  let page: URL;
  try {
    page = new URL(values[0]!);
  } catch {
    return null;
  }
  if (page.protocol !== 'https:' && page.protocol !== 'http:') return null;
  if (page.username || page.password) return null;
  return satelliteOrigins.includes(page.origin) ? page : null;
}
