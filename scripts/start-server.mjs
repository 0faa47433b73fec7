#!/usr/bin/env node
// `npm start`'s server: server/src/main.ts bundled into plain JavaScript (scripts/bundle-sources.mjs),
// built only when what it is built from changed, then run in this process. Loading the ≈ 600 TypeScript
// modules one by one through tsx took 4–5 s of a second start; the bundle loads in a fraction of that.
//
// The bundle lives in node_modules/.cache/server-build/<hash>/, the hash being a SHA-256 of the path, size
// and modification time of every file it is built from (identity/src, server/src, contract/src, the
// lockfile): reading them all would cost more than the check is worth, and a file touched without a
// change only costs a rebuild of about a second. It is written aside and renamed when complete, so an
// interrupted build is never run. `--force` (or SERVER_BUNDLE=0 to run the sources
// through tsx) is how a developer bypasses it.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { buildErrors, bundleOptions } from './bundle-sources.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = join(ROOT, 'server', 'src', 'main.ts');
const INPUTS = ['identity/src', 'server/src', 'contract/src', 'package-lock.json'];
const CACHE = join(ROOT, 'node_modules', '.cache', 'server-build');

function files(path, found) {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) if (name !== 'node_modules') files(join(path, name), found);
  } else found.push(path);
  return found;
}

function inputsHash() {
  const hash = createHash('sha256');
  for (const input of INPUTS)
    for (const file of files(join(ROOT, input), [])) {
      const { size, mtimeMs } = statSync(file);
      hash.update(`${relative(ROOT, file)}\0${size}\0${mtimeMs}\0`);
    }
  return hash.digest('hex').slice(0, 16);
}

/** The bundle's path, built when missing; null when the build failed (the caller runs the sources). */
async function serverBundle() {
  const t0 = Date.now();
  const dir = join(CACHE, inputsHash());
  const out = join(dir, 'main.mjs');
  if (!process.argv.includes('--force') && existsSync(out)) {
    console.log(`server: the bundle is current (${Date.now() - t0} ms to check)`);
    return out;
  }
  const partial = `${dir}.${process.pid}`;
  try {
    await build({ ...bundleOptions(ROOT), entryPoints: [ENTRY], outfile: join(partial, 'main.mjs') });
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    console.error(`server: bundling failed, running the sources through tsx instead:\n${buildErrors(error)}`);
    return null;
  }
  // Older bundles are of other sources: keep only this one.
  for (const name of readdirSync(CACHE))
    if (join(CACHE, name) !== partial) rmSync(join(CACHE, name), { recursive: true, force: true });
  renameSync(partial, dir);
  console.log(`server: bundled in ${Date.now() - t0} ms`);
  return out;
}

const bundle = process.env.SERVER_BUNDLE === '0' ? null : await serverBundle();
if (bundle) {
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(ENTRY).href);
}
