// Bundles the test files into plain JavaScript before they run (scripts/bundle-sources.mjs says how and
// what is kept as under tsx): importing the identity test harness takes 2.4 s of CPU through tsx, 0.5 s
// bundled, and a suite has ≈ 230 test processes. One esbuild build per run, every file an entry point,
// the code they share in common chunks. Child processes a test starts (`node --import tsx
// server/src/main.ts`) still run the sources.
import { rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { buildErrors, bundleOptions } from './bundle-sources.mjs';

/**
 * Bundles `files` (absolute or relative to `root`) into `outdir`; returns each file's bundle path, or
 * null when the build failed (the caller then runs the sources through tsx, after saying why).
 * @param {string} root
 * @param {string[]} files
 * @param {string} outdir
 * @returns {Promise<Map<string, string> | null>}
 */
export async function bundleTests(root, files, outdir) {
  rmSync(outdir, { recursive: true, force: true });
  const entryPoints = files.map((file) => ({
    in: join(root, relative(root, file)),
    out: relative(root, file).replace(/\.tsx?$/, ''),
  }));
  try {
    await build({
      ...bundleOptions(root),
      entryPoints,
      outdir,
      outExtension: { '.js': '.mjs' },
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
    });
  } catch (error) {
    console.error(`test bundle failed, running the sources through tsx instead:\n${buildErrors(error)}`);
    return null;
  }
  return new Map(entryPoints.map((e, i) => [files[i], join(outdir, `${e.out}.mjs`)]));
}
