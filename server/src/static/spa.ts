import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

const RESERVED = /^\/(api|__clerk|__clerk_backend|__clerk-js|__dev)(\/|$)/;

/** The built SPA with history fallback: unknown GETs that want HTML get index.html. */
export async function registerSpa(app: FastifyInstance, webDist: string) {
  if (!existsSync(join(webDist, 'index.html'))) {
    throw new Error(`The web app is not built (${webDist}/index.html is missing): run "npm run build".`);
  }
  await app.register(fastifyStatic, {
    root: webDist,
    prefix: '/',
    wildcard: false,
    index: false,
    setHeaders(res, path) {
      // Vite fingerprints everything under /assets/ except our own static folders.
      if (/\/assets\/[^/]+-[A-Za-z0-9_-]{8}\.(js|css)$/.test(path))
        res.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    if (req.method === 'GET' && !RESERVED.test(path) && !/\.[a-z0-9]+$/i.test(path)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ errors: [{ code: 'resource_not_found', message: 'Not found' }] });
  });
}
