import Fastify from 'fastify';
import { createIdentity } from '../../src/identity.ts';
import { BAPI, testConfig } from './harness.ts';

/**
 * Every Backend API route as `METHOD /v1/...`, read from Fastify's `onRoute` hook while the provider
 * registers itself: what is served, to compare with the declared table. HEAD twins of GET routes are
 * left out.
 */
export async function servedBapiRoutes(): Promise<string[]> {
  const identity = await createIdentity(testConfig(), { memory: true });
  const app = Fastify();
  const routes = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${BAPI}/`)) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method !== 'HEAD') routes.add(`${method} ${route.url.slice(BAPI.length)}`);
    }
  });
  try {
    await identity.register(app, { bapiPath: BAPI });
    await app.ready();
  } finally {
    await app.close();
    await identity.close();
  }
  return [...routes].sort();
}
