/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the built app (web/dist), once, at build:
 * the server then sends these bytes as they are instead of compressing the same script on every request.
 * A variant is kept only when it is smaller than the file. Brotli at its best quality: the cost is paid
 * here, once, not per visitor.
 *
 *   node scripts/precompress.mjs [dist folder]   (web/package.json's build runs it after vite build)
 */
import { readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = /\.(html|js|mjs|css|json|md|svg|txt|xml|map|webmanifest)$/i;
const VARIANTS = /\.(br|gz)$/i;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const dist = resolve(process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url)));

async function* filesOf(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesOf(path);
    else if (entry.isFile()) yield path;
  }
}

async function precompress(path) {
  const raw = await readFile(path);
  const [br, gz] = await Promise.all([
    brotli(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }),
    gzipAsync(raw, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  let saved = 0;
  for (const [ext, bytes] of [
    ['.br', br],
    ['.gz', gz],
  ]) {
    // Not smaller: no variant, and none left over from an earlier build either.
    if (bytes.length < raw.length) {
      await writeFile(path + ext, bytes);
      saved += 1;
    } else await unlink(path + ext).catch(() => {});
  }
  return { raw: raw.length, br: br.length, gz: gz.length, saved };
}

await stat(join(dist, 'index.html')).catch(() => {
  throw new Error(`${dist}/index.html is missing: run vite build first.`);
});
const started = Date.now();
let files = 0;
let rawBytes = 0;
let brBytes = 0;
const jobs = [];
for await (const path of filesOf(dist)) {
  if (VARIANTS.test(path) || !COMPRESSIBLE.test(path)) continue;
  jobs.push(
    precompress(path).then((r) => {
      files += 1;
      rawBytes += r.raw;
      brBytes += Math.min(r.br, r.raw);
    }),
  );
}
await Promise.all(jobs);
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
process.stdout.write(
  `precompress: ${files} files, ${kb(rawBytes)} → ${kb(brBytes)} brotli, in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
);
