import type { FastifyInstance } from 'fastify';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/**
 * Forwards the Frontend API path (clerk-js's `proxyUrl`) to an identity provider running elsewhere:
 * the standalone embedded provider, or hosted Clerk's Frontend API in proxy mode.
 */
export async function registerFapiProxy(
  app: FastifyInstance,
  opts: { path: string; target: string; secretKey: string; publicUrl: string },
) {
  const target = opts.target.replace(/\/$/, '');
  // Bodies are forwarded untouched, whatever their type.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.all(`${opts.path}/*`, async (req, reply) => {
    const url = target + req.url.slice(opts.path.length);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    headers.set('x-forwarded-for', req.ip);
    headers.set('x-forwarded-proto', req.protocol);
    // Hosted Clerk's proxy contract; our provider ignores both.
    headers.set('clerk-proxy-url', `${opts.publicUrl}${opts.path}`);
    headers.set('clerk-secret-key', opts.secretKey);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body !== undefined;
    const res = await fetch(url, {
      method: req.method,
      headers,
      body: hasBody
        ? new Uint8Array(Buffer.isBuffer(req.body) ? req.body : Buffer.from(JSON.stringify(req.body)))
        : undefined,
      redirect: 'manual',
    });
    reply.code(res.status);
    res.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'set-cookie' && name !== 'content-encoding')
        reply.header(name, value);
    });
    const cookies = res.headers.getSetCookie();
    if (cookies.length) reply.header('set-cookie', cookies);
    return reply.send(Buffer.from(await res.arrayBuffer()));
  });
}
