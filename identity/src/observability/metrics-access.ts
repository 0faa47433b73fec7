import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * Who may read `/metrics` (`METRICS_ALLOWED_FROM`): `off`, or addresses and CIDRs (`loopback` for
 * 127.0.0.0/8 and ::1). Default: loopback in development, `off` in production, where a reverse proxy on
 * the same host would otherwise make every outside request look local. Anyone else gets a 404.
 */
export type MetricsAccess = 'off' | string[];

const LOOPBACK = ['127.0.0.0/8', '::1/128'];

export function metricsAccessFrom(value: string | undefined, production: boolean): MetricsAccess {
  const raw = (value ?? '').trim();
  if (raw === '') return production ? 'off' : LOOPBACK;
  if (raw === 'off' || raw === 'false') return 'off';
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .flatMap((entry) => {
      if (entry === 'loopback') return LOOPBACK;
      const [address = '', prefix, ...rest] = entry.split('/');
      const family = isIP(address);
      const max = family === 4 ? 32 : 128;
      if (
        !family ||
        rest.length ||
        (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) ||
        Number(prefix) > max
      )
        throw new Error(
          `METRICS_ALLOWED_FROM: "${entry}" is neither off, loopback, nor an address or CIDR such as 10.0.0.0/8.`,
        );
      return [prefix === undefined ? `${address}/${max}` : entry];
    });
}

/** The check of one request: its address (as Fastify's trustProxy made it) in an allowed range. */
export function metricsAllowed(
  access: MetricsAccess,
  opts: { proxied: boolean },
): (req: FastifyRequest) => boolean {
  if (access === 'off') return () => false;
  const list = new BlockList();
  for (const cidr of access) {
    const [address = '', prefix = ''] = cidr.split('/');
    const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    list.addSubnet(address, Number(prefix), family);
  }
  return (req) => {
    // Forwarded by a proxy this server does not trust: the peer is the proxy, not who asked.
    if (
      !opts.proxied &&
      (req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined)
    )
      return false;
    const ip = req.ip.startsWith('::ffff:') && isIP(req.ip.slice(7)) === 4 ? req.ip.slice(7) : req.ip;
    const family = isIP(ip);
    if (!family) return false;
    return list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
  };
}
