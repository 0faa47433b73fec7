import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

export function isLoopbackAddress(address: string): boolean {
  const plain = address.replace(/^\[(.*)\]$/, '$1').replace(/^::ffff:(?=\d+\.)/i, '');
  const family = isIP(plain);
  return family !== 0 && LOOPBACK.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

/** A listening host that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || isLoopbackAddress(host);
}

/**
 * Whether a request comes from this machine and was not forwarded for anyone else: the peer and every
 * address a proxy named (X-Forwarded-For, X-Real-IP, Forwarded) are loopback. Stricter than `req.ip`
 * under any TRUST_PROXY: a reverse proxy on this machine that forwards outside clients names them in
 * one of these headers, and is then refused even when TRUST_PROXY does not trust it.
 */
export function isLoopbackRequest(req: FastifyRequest): boolean {
  const forwarded = [
    ...headerValues(req.headers['x-forwarded-for']).flatMap((v) => v.split(',')),
    ...headerValues(req.headers['x-real-ip']),
    ...headerValues(req.headers.forwarded).flatMap((v) =>
      [...v.matchAll(/for=\s*"?([^";,]*)/gi)].map((m) => m[1]!.replace(/:\d+$/, '')),
    ),
  ];
  return [req.socket.remoteAddress ?? '', ...forwarded].every((a) => isLoopbackAddress(a.trim()));
}

function headerValues(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
