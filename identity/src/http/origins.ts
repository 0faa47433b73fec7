import type { IdentityConfig } from '../config.ts';

/** Methods that never change anything; every other one (and every tunnelled `_method`) arrives as POST. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery guard for cookie-authenticated calls: whether a request may change state,
 * judged by the headers a browser sets and a page cannot forge.
 *
 * - Safe methods always pass. Two GET routes do change state, and are meant to be opened from another
 *   site (a mail client): the email link (`/v1/verify`) and the ticket link (`/v1/tickets/accept`). Each
 *   needs a secret token from the mail, which a forging page does not have.
 * - With an `Origin`, it must be exactly the product's origin, one of `ALLOWED_ORIGINS` or one of a satellite
 *   domain's (docs/satellites.md). Unlike redirect
 *   targets, subdomains do not pass: a sibling host on the same site (user content, a staging app) is no
 *   reason to let it act with this site's cookies; list it to allow it. `Origin: null` (sandboxed frames,
 *   `file:`, some redirects) is no allowed origin.
 * - Without an `Origin`, `Sec-Fetch-Site: cross-site` or `same-site` is a browser telling us another origin
 *   made the request: refused. Without either header it is no browser request with ambient cookies (every
 *   browser we support sends `Origin` on POST, same-origin included), but a server, the CLI, curl or a
 *   test, which holds whatever credentials it sends on purpose: it passes.
 * - One POST is exempt: `<fapiPath>/v1/oauth_callback`, exactly, untunnelled. Form-post providers (Apple)
 *   post the code there from their own site, so no guard on origin could let them through. The route
 *   reads and writes nothing with the cookies: it only redirects the browser to the GET callback with
 *   the posted fields (oauth-callback-form-post.ts), where the state is checked against the client.
 * - So is the SAML ACS, `<fapiPath>/v1/saml/acs/<connection id>`, exactly, untunnelled: the IdP's page posts
 *   the response there from its own site. It reads no cookie either: the response must answer one of our
 *   AuthnRequests, and the browser is sent on to the GET form, with its cookies, where the request is
 *   checked against the client (fapi/enterprise-sso/saml-acs.ts).
 */
export function requestOriginGuard(
  config: Pick<IdentityConfig, 'publicUrl' | 'allowedOrigins'> & Partial<Pick<IdentityConfig, 'fapiPath'>>,
  satelliteOrigins: () => readonly string[] = () => [],
): (req: RequestHeadersOf) => boolean {
  const allowed = allowedOrigins(config);
  const formPostCallback = config.fapiPath === undefined ? null : `${config.fapiPath}/v1/oauth_callback`;
  const samlAcs =
    config.fapiPath === undefined
      ? null
      : new RegExp(`^${escapeRegExp(config.fapiPath)}/v1/saml/acs/(samlc_[A-Za-z0-9_-]{1,64})$`);
  return (req) => {
    if (SAFE_METHODS.has(req.method.toUpperCase())) return true;
    if (formPostCallback !== null && req.method.toUpperCase() === 'POST' && req.url === formPostCallback) {
      return true;
    }
    if (samlAcs !== null && req.method.toUpperCase() === 'POST' && samlAcs.test(req.url ?? '')) return true;
    const origin = single(req.headers.origin);
    if (origin !== undefined) {
      const o = origin.trim().toLowerCase();
      // The instance's satellite domains (settings `domains`), exactly, as they are now.
      return allowed.has(o) || satelliteOrigins().includes(o);
    }
    const site = single(req.headers['sec-fetch-site'])?.trim().toLowerCase();
    return site !== 'cross-site' && site !== 'same-site';
  };
}

interface RequestHeadersOf {
  method: string;
  /** The path and query as received; only the form-post callback's exact path (no query) is exempt. */
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}

/** The serialised origins (`scheme://host[:port]`, as browsers send them) that may call with cookies. */
function allowedOrigins(config: Pick<IdentityConfig, 'publicUrl' | 'allowedOrigins'>): Set<string> {
  const origins = new Set<string>();
  for (const value of [config.publicUrl, ...config.allowedOrigins]) {
    try {
      const { origin } = new URL(value);
      if (origin !== 'null') origins.add(origin);
    } catch {
      // A malformed ALLOWED_ORIGINS entry allows nothing.
    }
  }
  return origins;
}

/** A repeated header is kept whole, so two Origins never match one allowed origin. */
const single = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : v);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
