import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compressedSizes, type Sizes } from './compressed-size.ts';
import {
  libraryStylesheets,
  sumGroups,
  sumSizes,
  type ClerkJsFile,
  type OurFile,
  type PackageBytes,
} from './bundle-sizes.ts';
import { GROUPS, type Group } from './package-groups.ts';
import { kib, type ReportTable } from './report-table.ts';
import { WEB_DIST } from './web-build.ts';

const GROUP_LABELS: Record<Group, string> = {
  'our code': 'our code (web/src)',
  React: 'React (react, react-dom, scheduler, react-router)',
  'Clerk React SDK': 'Clerk React SDK (@clerk/clerk-react, @clerk/shared, @clerk/localizations, swr…)',
  'other libraries': 'other libraries (i18next, react-i18next, react-markdown…)',
  'bundler glue': 'bundler glue (bytes the source map ties to no source)',
};

const cells = (s: Sizes) => [kib(s.raw), kib(s.gzip), kib(s.brotli)];
const SIZE_HEAD = ['raw', 'gzip', 'brotli'];

const GZIP_SHARE_NOTE =
  'gzip -9 and brotli -11 are measured per file; inside one of our chunks they are shared out in ' +
  'proportion to each part’s raw (minified) bytes, as compressed bytes cannot be traced to a source.';

function groupRows(files: OurFile[], indent = '· '): string[][] {
  const byGroup = sumGroups(files);
  return GROUPS.filter((g) => byGroup[g].raw > 0).map((g) => [
    `${indent}${GROUP_LABELS[g]}`,
    ...cells(byGroup[g]),
  ]);
}

export function ourBundleTable(files: OurFile[], loadedLazy: Set<string>): ReportTable {
  const rows: string[][] = [];
  const part = (label: string, selected: OurFile[]) => {
    if (selected.length === 0) return;
    // Past a few files the names are in the chunk table; here they would only widen the column.
    const names =
      selected.length <= 3
        ? selected.map((f) => f.path.replace('assets/', '')).join(', ')
        : `${selected.length} files`;
    rows.push([`${label}: ${names}`, ...cells(sumSizes(selected.map((f) => f.sizes)))]);
    if (selected.some((f) => f.path.endsWith('.js'))) rows.push(...groupRows(selected));
  };
  const js = (f: OurFile) => f.path.endsWith('.js');
  part(
    'initial JS',
    files.filter((f) => f.initial && js(f)),
  );
  part(
    'initial CSS (our code)',
    files.filter((f) => f.initial && !js(f)),
  );
  part(
    'lazy JS',
    files.filter((f) => !f.initial && js(f)),
  );
  part(
    'lazy CSS (our code)',
    files.filter((f) => !f.initial && !js(f)),
  );
  rows.push(['all of web/dist (JS + CSS)', ...cells(sumSizes(files.map((f) => f.sizes)))]);
  const lazy = files.filter((f) => !f.initial).map((f) => f.path.replace('assets/', ''));
  const stylesheets = libraryStylesheets();
  return {
    title: 'Our bundle (web/dist), split by source map',
    head: ['part', ...SIZE_HEAD],
    rows,
    notes: [
      'initial = what index.html loads (entry script, its preloads, stylesheets); lazy = chunks loaded by dynamic import().',
      lazy.length
        ? `lazy chunks the signed-in dashboard loaded: ${lazy.filter((p) => loadedLazy.has(p)).join(', ') || 'none'}.`
        : 'no lazy chunk.',
      GZIP_SHARE_NOTE,
      stylesheets.length
        ? `CSS is counted whole as our code, although web/src imports these library stylesheets: ${stylesheets.join(', ')}.`
        : 'CSS has no source map and is counted as our code: web/src imports no library stylesheet.',
    ],
  };
}

export function clerkJsTable(version: string, files: ClerkJsFile[], observed: boolean): ReportTable {
  return {
    title: `clerk-js ${version} (/__clerk-js/${version}/) files the signed-in dashboard loads`,
    head: ['file', ...SIZE_HEAD],
    rows: [
      ...files.map((f) => [f.name, ...cells(f.sizes)]),
      [`total (${files.length} files)`, ...cells(sumSizes(files.map((f) => f.sizes)))],
    ],
    notes: [
      observed
        ? 'The list is what Chromium requested under /__clerk-js/ while loading /dashboard signed in, until the network was idle.'
        : 'Only the main file: the browser run did not record the chunks.',
      'clerk-js ships its own React DOM (the framework_* chunk): it is counted as clerk-js here, not as React.',
    ],
  };
}

/** The translations the dashboard loaded (JSON, not JS or CSS; shown apart): the active language's. */
export function translationSizes(requestedPaths: string[]): Sizes {
  const files = [...new Set(requestedPaths.filter((p) => /^\/assets\/i18n\/.+\.json$/.test(p)))];
  return sumSizes(
    files
      .map((p) => join(WEB_DIST, p))
      .filter((f) => existsSync(f))
      .map((f) => compressedSizes(readFileSync(f))),
  );
}

/** The split: everything the signed-in dashboard loads, by where it comes from. */
export function dashboardSplitTable(
  ours: OurFile[],
  loadedLazy: Set<string>,
  clerk: ClerkJsFile[],
  translations: Sizes,
  transferredMedian: number,
  compressedBy: string | null,
): ReportTable {
  const loaded = ours.filter((f) => f.initial || loadedLazy.has(f.path));
  const byGroup = sumGroups(loaded);
  const clerkMain = clerk.filter((f) => f.name === 'clerk.browser.js').map((f) => f.sizes);
  const clerkChunks = clerk.filter((f) => f.name !== 'clerk.browser.js').map((f) => f.sizes);
  const parts: [string, Sizes][] = [
    ...GROUPS.filter((g) => byGroup[g].raw > 0).map((g): [string, Sizes] => [GROUP_LABELS[g], byGroup[g]]),
    ['clerk-js main file (clerk.browser.js)', sumSizes(clerkMain)],
    [`clerk-js chunks (${clerkChunks.length})`, sumSizes(clerkChunks)],
  ];
  const total = sumSizes(parts.map(([, s]) => s));
  const pct = (s: Sizes) => `${((100 * s.gzip) / total.gzip).toFixed(0)} %`;
  return {
    title: 'What the signed-in dashboard loads: JavaScript and CSS by origin',
    head: ['origin', ...SIZE_HEAD, 'share of gzip'],
    rows: [
      ...parts.map(([label, s]) => [label, ...cells(s), pct(s)]),
      ['total JS + CSS', ...cells(total), '100 %'],
      ['(besides: translations JSON the dashboard loaded)', ...cells(translations), ''],
    ],
    notes: [
      'Our code includes our stylesheet(s); the libraries’ parts are JavaScript only.',
      GZIP_SHARE_NOTE,
      compressedBy
        ? `Our server sent these files compressed (${compressedBy}).`
        : 'Our server sends these files uncompressed (no Content-Encoding): the raw column is what goes over the wire today.',
      `Measured over the wire for a cold load (all requests, Resource Timing transferSize, median): ${kib(transferredMedian)}.`,
    ],
  };
}

export function largestPackagesTable(packages: PackageBytes[], count = 12): ReportTable {
  return {
    title: `Largest contributors to our bundle (top ${count}, raw minified bytes)`,
    head: ['package', 'group', 'raw'],
    rows: packages.slice(0, count).map((p) => [p.name, p.group, kib(p.raw)]),
  };
}
