import type { IdentityConfig } from '../config.ts';

/**
 * Whether a redirect target is on an allowed origin: the product's own origin, the configured extra
 * origins and their subdomains. Only http(s) is ever allowed, so `javascript:` and friends never pass.
 */
export function isAllowedRedirect(target: string, config: IdentityConfig): boolean {
  let url: URL;
  try {
    url = new URL(target, config.publicUrl);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const allowed = [config.publicUrl, ...config.allowedOrigins].map((o) => new URL(o));
  return allowed.some(
    (o) =>
      url.origin === o.origin ||
      (url.protocol === o.protocol && url.port === o.port && url.hostname.endsWith(`.${o.hostname}`)),
  );
}
