import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { IMMUTABLE, ServedFile } from './served-file.ts';

const require = createRequire(import.meta.url);
const clerkJsPackage = require('@clerk/clerk-js/package.json') as { version: string };
const CLERK_JS_DIST = join(dirname(require.resolve('@clerk/clerk-js/package.json')), 'dist');

/** Versioned so the files can be cached for good; clerk-js loads its UI chunks from this same folder. */
export const CLERK_JS_PREFIX = `/__clerk-js/${clerkJsPackage.version}/`;
export const CLERK_JS_URL = `${CLERK_JS_PREFIX}clerk.browser.js`;

/**
 * Serves @clerk/clerk-js from node_modules on our own origin: nothing is loaded from a CDN. Only the
 * bundle's own scripts (the files at the top of dist/, named once, at start) can be asked for. Each is read
 * and compressed once per process, when first asked for, then answered from memory: the package's dist
 * holds 24 MB of builds for other targets that a browser never loads.
 */
export async function registerClerkJs(app: FastifyInstance) {
  const names = new Set(
    readdirSync(CLERK_JS_DIST, { withFileTypes: true })
      .filter((entry) => entry.isFile() && /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.m?js$/.test(entry.name))
      .map((entry) => entry.name),
  );
  const loaded = new Map<string, Promise<ServedFile>>();
  const fileNamed = (name: string) => {
    let file = loaded.get(name);
    if (!file) {
      file = readFile(join(CLERK_JS_DIST, name)).then(
        (bytes) => new ServedFile(bytes, name),
        (err: unknown) => {
          loaded.delete(name); // asked again next time, not failed for good
          throw err;
        },
      );
      loaded.set(name, file);
    }
    return file;
  };
  app.get<{ Params: { file: string } }>(`${CLERK_JS_PREFIX}:file`, async (req, reply) => {
    if (!names.has(req.params.file)) return reply.callNotFound();
    return (await fileNamed(req.params.file)).send(req, reply, IMMUTABLE);
  });
}
