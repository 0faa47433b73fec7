import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { addSizes, compressedSizes, shareOf, ZERO, type Sizes } from './compressed-size.ts';
import { GROUPS, groupOf, packageOf, type Group } from './package-groups.ts';
import { bytesBySource } from './source-attribution.ts';
import { REPO_ROOT, WEB_DIST, WEB_SRC } from './web-build.ts';

export interface OurFile {
  /** `assets/…`, as served from the site's root */
  path: string;
  initial: boolean;
  sizes: Sizes;
  byGroup: Record<Group, Sizes>;
}

export interface ClerkJsFile {
  name: string;
  sizes: Sizes;
}

export interface PackageBytes {
  name: string;
  group: Group;
  raw: number;
}

const noGroups = (): Record<Group, Sizes> =>
  Object.fromEntries(GROUPS.map((g) => [g, ZERO])) as Record<Group, Sizes>;

/**
 * Each shipped file of web/dist, split into the groups by the source map of its twin in `mappedDir`.
 * Raw bytes are exact; a file's gzip and brotli bytes are shared out in proportion to raw bytes, as
 * compressed bytes cannot be traced back to a source. Stylesheets have no source map: they count whole
 * as our code (see `libraryStylesheets`).
 */
export function ourFiles(
  assets: string[],
  initial: Set<string>,
  mappedDir: string,
): { files: OurFile[]; packages: PackageBytes[] } {
  const packages = new Map<string, PackageBytes>();
  const files = assets.map((path): OurFile => {
    const shipped = readFileSync(join(WEB_DIST, path));
    const sizes = compressedSizes(shipped);
    const byGroup = noGroups();
    if (path.endsWith('.css')) {
      byGroup['our code'] = sizes;
      return { path, initial: initial.has(path), sizes, byGroup };
    }
    const { code, bytes } = bytesBySource(join(mappedDir, path));
    if (code !== shipped.toString('utf8')) {
      console.warn(`${path}: the source-mapped twin differs from web/dist; its shares are applied anyway.`);
    }
    // Scaled so the parts add up to the shipped file even if the twin differed.
    const scale = shipped.length / [...bytes.values()].reduce((a, b) => a + b, 0);
    const rawByGroup = new Map<Group, number>();
    for (const [source, n] of bytes) {
      const group = groupOf(source, WEB_SRC);
      rawByGroup.set(group, (rawByGroup.get(group) ?? 0) + n * scale);
      const name = source === null ? '(unmapped)' : (packageOf(source) ?? 'web/src');
      const entry = packages.get(name) ?? { name, group, raw: 0 };
      entry.raw += n * scale;
      packages.set(name, entry);
    }
    for (const [group, raw] of rawByGroup) byGroup[group] = shareOf(sizes, raw);
    return { path, initial: initial.has(path), sizes, byGroup };
  });
  return { files, packages: [...packages.values()].sort((a, b) => b.raw - a.raw) };
}

export function sumGroups(files: OurFile[]): Record<Group, Sizes> {
  const total = noGroups();
  for (const file of files) for (const g of GROUPS) total[g] = addSizes(total[g], file.byGroup[g]);
  return total;
}

export function sumSizes(sizes: Sizes[]): Sizes {
  return sizes.reduce(addSizes, ZERO);
}

/** Stylesheets web/src imports from packages (none today; they would be counted as our code). */
export function libraryStylesheets(dir = WEB_SRC): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...libraryStylesheets(path + '/'));
    else if (/\.(ts|tsx|css)$/.test(name)) {
      const text = readFileSync(path, 'utf8');
      for (const m of text.matchAll(/(?:import|@import)\s+['"]([^.'"][^'"]*\.css)['"]/g)) found.push(m[1]!);
    }
  }
  return found;
}

/** The @clerk/clerk-js the product server serves at /__clerk-js/<version>/. */
export function clerkJs(): { version: string; dist: string } {
  const require = createRequire(join(REPO_ROOT, 'server', 'package.json'));
  const packageJson = require.resolve('@clerk/clerk-js/package.json');
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  return { version, dist: join(dirname(packageJson), 'dist') };
}

/** Sizes of the given clerk-js files (names inside its dist folder), the main file first. */
export function clerkJsFiles(names: string[]): ClerkJsFile[] {
  const { dist } = clerkJs();
  const main = 'clerk.browser.js';
  const ordered = [main, ...names.filter((n) => n !== main).sort()];
  return ordered.map((name) => ({ name, sizes: compressedSizes(readFileSync(join(dist, name))) }));
}
