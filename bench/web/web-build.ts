import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const WEB_DIR = join(REPO_ROOT, 'web');
export const WEB_DIST = join(WEB_DIR, 'dist');
export const WEB_SRC = join(WEB_DIR, 'src') + '/';

/** The fingerprinted JS and CSS files of a build, as paths relative to its folder (`assets/…`). */
export function builtAssets(outDir: string): string[] {
  const assets = join(outDir, 'assets');
  return readdirSync(assets)
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => `assets/${name}`)
    .sort();
}

/** What index.html itself loads: the entry script, its preloaded imports and the stylesheets. */
export function initialAssets(outDir: string): Set<string> {
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  return new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!));
}

export function buildWebDist(): void {
  console.log('Building web/dist (npm run build)…');
  execFileSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * The same production build with source maps, into `outDir`: the web app's own config, only the
 * output folder and `--sourcemap` differ, so web/dist is left as it ships. Vite's file names are
 * content hashes of the code, so both builds name their chunks alike.
 */
export function buildWithSourceMaps(outDir: string): void {
  const require = createRequire(join(WEB_DIR, 'package.json'));
  const vite = join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  execFileSync(
    process.execPath,
    [vite, 'build', '--sourcemap', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
    { cwd: WEB_DIR, stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

/**
 * web/dist as the sources are now, and a source-mapped twin of it in `mappedDir`. web/dist is built
 * when missing, and rebuilt when its chunks no longer match the sources (the server would otherwise
 * serve, and the timings measure, an older app).
 */
export function prepareBuilds(mappedDir: string): { assets: string[]; initial: Set<string> } {
  if (!existsSync(join(WEB_DIST, 'index.html'))) buildWebDist();
  buildWithSourceMaps(mappedDir);
  const same = () => builtAssets(WEB_DIST).join() === builtAssets(mappedDir).join();
  if (!same()) {
    console.log('web/dist does not match the sources.');
    buildWebDist();
    if (!same()) throw new Error('web/dist and the source-mapped build differ: is web/src being edited?');
  }
  return { assets: builtAssets(WEB_DIST), initial: initialAssets(WEB_DIST) };
}
