import type { IdentityConfig } from '../config.ts';

/**
 * Whether a redirect target is on an allowed origin: the product's own origin, the configured extra
 * origins and their subdomains. Only http(s) is ever allowed, so `javascript:` and friends never pass.
 */
export function isAllowedRedirect(
  target: string,
  config: IdentityConfig,
  satelliteOrigins: readonly string[] = [],
): boolean {
  let url: URL;
  try {
    url = new URL(target, config.publicUrl);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  // A satellite's origins pass exactly, never their subdomains.
  if (!url.username && !url.password && satelliteOrigins.includes(url.origin)) return true;
  const allowed = [config.publicUrl, ...config.allowedOrigins].map((o) => new URL(o));
  return allowed.some(
    (o) =>
      url.origin === o.origin ||
      (url.protocol === o.protocol && url.port === o.port && url.hostname.endsWith(`.${o.hostname}`)),
  );
}

const PORTAL_REWRITES: [RegExp, string][] = [
  [/clerk\.accountsstage\./, 'accountsstage.'],
  [/clerk\.accounts\.|clerk\./, 'accounts.'],
];

/**
 * The Account Portal origin clerk-js derives from the publishable key's frontend API host for the popup
 * flow (`https://` + the host with its `clerk.` label turned into `accounts.`, as `buildAccountsBaseUrl`
 * in `@clerk/shared` does): `clerk.app.example.com` → `https://accounts.app.example.com`,
 * `clerk.localhost:3000` → `https://accounts.localhost:3000`, a development key's
 * `<name>.clerk.accounts.dev` → `https://<name>.accounts.dev`. Always https, whatever the product's scheme.
 */
export function accountsPortalOrigin(frontendApiHost: string): string {
  // Two rewrites in this order, each of the leftmost match, case as given (clerk-js's rule); then the
  // origin as a browser reports it (lower case, no :443).
  const host = PORTAL_REWRITES.reduce((h, [from, to]) => h.replace(from, to), frontendApiHost);
  return new URL(`https://${host}`).origin;
}

/** The path of the page the popup flow ends on, on the Account Portal origin. */
export const POPUP_CALLBACK_PATH = '/popup-callback';

/**
 * Whether `target` is the popup flow's landing page clerk-js builds for `authenticateWithPopup`: exactly
 * `https://accounts.<domain>/popup-callback` on this instance's Account Portal origin (no other host,
 * scheme, port, path or userinfo), whose `return_url`, when present, is itself an absolute allowed redirect. The
 * `__clerk_created_session` parameter is ours to add when the callback completes, never the caller's.
 */
export function isPopupCallbackRedirect(target: string, config: IdentityConfig): boolean {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return false;
  }
  const portal = new URL(accountsPortalOrigin(config.frontendApiHost));
  if (url.origin !== portal.origin || url.username || url.password) return false;
  if (url.pathname !== POPUP_CALLBACK_PATH || url.searchParams.has('__clerk_created_session')) return false;
  const returnUrls = url.searchParams.getAll('return_url');
  if (returnUrls.length > 1) return false;
  return returnUrls.every((r) => URL.canParse(r) && isAllowedRedirect(r, config));
}

/**
 * Whether `target` is an absolute http(s) URL on exactly one of the instance's origins (the product's own
 * or a configured extra one, or a satellite's): no subdomain, no other port or scheme, no userinfo. For redirects that carry
 * a credential (the handshake's token or nonce), where "any host under an allowed one" would be too wide.
 */
export function isExactOriginRedirect(
  target: string,
  config: IdentityConfig,
  satelliteOrigins: readonly string[] = [],
): boolean {
  if (!URL.canParse(target)) return false;
  const url = new URL(target);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return false;
  return [config.publicUrl, ...config.allowedOrigins, ...satelliteOrigins].some(
    (o) => URL.canParse(o) && new URL(o).origin === url.origin,
  );
}
