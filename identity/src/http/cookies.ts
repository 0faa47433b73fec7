import type { FastifyReply, FastifyRequest } from 'fastify';

const ONE_YEAR_SECONDS = 365 * 24 * 3600;

export function isSecureRequest(req: FastifyRequest): boolean {
  return req.protocol === 'https';
}

export interface CookieSpec {
  name: string;
  value: string;
  path: string;
  httpOnly: boolean;
  maxAgeSeconds?: number;
}

/** Cookies are Lax (our FAPI is same-origin through the proxy path) and Secure whenever served over https. */
export function setCookie(req: FastifyRequest, reply: FastifyReply, spec: CookieSpec): void {
  reply.setCookie(spec.name, spec.value, {
    path: spec.path,
    httpOnly: spec.httpOnly,
    sameSite: 'lax',
    secure: isSecureRequest(req),
    maxAge: spec.maxAgeSeconds ?? ONE_YEAR_SECONDS,
  });
}
