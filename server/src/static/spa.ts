import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { IMMUTABLE, REVALIDATE, ServedFile } from './served-file.ts';

const RESERVED = /^\/(api|__clerk|__clerk_backend|__clerk-js|__dev)(\/|$)/;
/**
 * Vite's fingerprinted output: `/assets/<name>-<8-character hash>.<ext>`, directly under /assets/ (what
 * web/public puts under /assets/ lives in subfolders, such as i18n/, and keeps its name across builds).
 */
const FINGERPRINTED = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;
const VARIANT = /\.(br|gz)$/;
/** Path segments a route can carry as they are (no `:`, `*`, spaces), and no dotfiles or dot folders. */
const SERVABLE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * The built SPA, held in memory with the build's brotli and gzip files (web/scripts/precompress.mjs),
 * with history fallback: unknown GETs that want HTML get index.html. Fingerprinted files are cached for
 * good; the document and the rest are revalidated with their ETag every time. The files are read once, at
 * start: a new build needs a restart, as the routes (one per file) already did.
 */
export async function registerSpa(app: FastifyInstance, webDist: string) {
  if (!existsSync(join(webDist, 'index.html'))) {
    throw new Error(`The web app is not built (${webDist}/index.html is missing): run "npm run build".`);
  }
  const files = await loadDist(webDist);
  const index = files.get('/index.html')!;
  for (const [path, file] of files) {
    const cacheControl = FINGERPRINTED.test(path) ? IMMUTABLE : REVALIDATE;
    app.get(path, (req, reply) => file.send(req, reply, cacheControl));
  }
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    if (req.method === 'GET' && !RESERVED.test(path) && !/\.[a-z0-9]+$/i.test(path)) {
      return index.send(req, reply, REVALIDATE);
    }
    return reply.code(404).send({ errors: [{ code: 'resource_not_found', message: 'Not found' }] });
  });
}

/** Every file of the build by URL path, with its `.br`/`.gz` when they are as recent as the file itself. */
async function loadDist(webDist: string): Promise<Map<string, ServedFile>> {
  const files = new Map<string, ServedFile>();
  for (const entry of await readdir(webDist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || VARIANT.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const url = `/${relative(webDist, path).split(sep).join('/')}`;
    if (
      !url
        .slice(1)
        .split('/')
        .every((segment) => SERVABLE_NAME.test(segment))
    )
      continue;
    const { mtimeMs } = await stat(path);
    const [br, gzip] = await Promise.all([
      variantOf(`${path}.br`, mtimeMs),
      variantOf(`${path}.gz`, mtimeMs),
    ]);
    files.set(url, new ServedFile(await readFile(path), entry.name, { br, gzip }));
  }
  return files;
}

/** A precompressed file, unless missing or older than its source (left over from an earlier build). */
async function variantOf(path: string, sourceMtimeMs: number): Promise<Buffer | undefined> {
  const info = await stat(path).catch(() => null);
  if (!info || info.mtimeMs < sourceMtimeMs) return undefined;
  return readFile(path);
}
