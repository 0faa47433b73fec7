import { isIP } from 'node:net';

/**
 * `TRUST_PROXY`, parsed: false (no proxy), how many proxies stand in front (a hop count), or the
 * addresses/CIDRs of the proxies. `X-Forwarded-For` is read from the right: each trusted hop is
 * skipped and the first address that is not a trusted proxy is the client, so entries a client
 * writes into the header itself (on the left) are never taken for its address.
 */
export type TrustedProxies = false | number | string[];

/** Names proxy-addr (Fastify's `trustProxy`) knows for whole ranges. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export function trustedProxiesFrom(value: string | undefined): TrustedProxies {
  const raw = (value ?? '').trim();
  if (raw === '' || raw === 'false' || raw === '0') return false;
  // The usual single reverse proxy; `true` used to trust every hop (the left-most, client-written entry).
  if (raw === 'true') return 1;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      if (!isProxyAddress(entry)) {
        throw new Error(
          `TRUST_PROXY: "${entry}" is neither true, a hop count such as 1, nor a proxy address or CIDR such as 10.0.0.0/8.`,
        );
      }
      return entry;
    });
}

function isProxyAddress(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * What Fastify's `trustProxy` takes. A hop count becomes a function: Fastify 5 turns a bare number
 * into "trust nothing" (it cannot check the peer), while a count is what an operator behind a known
 * chain of proxies means. With a count, the server must be reachable only through those proxies.
 */
export function fastifyTrustProxy(
  proxies: TrustedProxies,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof proxies === 'number') return (_address, hop) => hop < proxies;
  return proxies;
}
