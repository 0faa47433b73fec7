import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

const require = createRequire(import.meta.url);
const clerkJsPackage = require('@clerk/clerk-js/package.json') as { version: string };
const CLERK_JS_DIST = join(dirname(require.resolve('@clerk/clerk-js/package.json')), 'dist');

/** Versioned so the files can be cached for good; clerk-js loads its UI chunks from this same folder. */
export const CLERK_JS_PREFIX = `/__clerk-js/${clerkJsPackage.version}/`;
export const CLERK_JS_URL = `${CLERK_JS_PREFIX}clerk.browser.js`;

/** Serves @clerk/clerk-js from node_modules on our own origin: nothing is loaded from a CDN. */
export async function registerClerkJs(app: FastifyInstance) {
  await app.register(fastifyStatic, {
    root: CLERK_JS_DIST,
    prefix: CLERK_JS_PREFIX,
    decorateReply: false,
    index: false,
    immutable: true,
    maxAge: '365d',
  });
}
