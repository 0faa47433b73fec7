import { sumSizes, type OurFile } from './bundle-sizes.ts';
import type { Sizes } from './compressed-size.ts';
import { kib, type ReportTable } from './report-table.ts';

const cells = (s: Sizes) => [kib(s.raw), kib(s.gzip), kib(s.brotli)];

/**
 * Each JavaScript chunk of web/dist, the initial ones (what index.html loads before any page) first,
 * then the lazy ones (pages, Clerk's texts per language, the markdown viewer) largest first; the
 * figures issue #12 asks for: how big the first download is, and what is left for later.
 */
export function chunkTable(files: OurFile[], loadedLazy: ReadonlySet<string> | null): ReportTable {
  const js = files.filter((f) => f.path.endsWith('.js'));
  const initial = js.filter((f) => f.initial);
  const lazy = js.filter((f) => !f.initial).sort((a, b) => b.sizes.raw - a.sizes.raw);
  const name = (f: OurFile) => f.path.replace('assets/', '');
  const loaded = (f: OurFile) => (loadedLazy === null ? '–' : loadedLazy.has(f.path) ? 'yes' : 'no');
  return {
    title: 'JavaScript chunks: the initial download and the lazy chunks',
    head: ['chunk', 'kind', 'loaded by the dashboard', 'raw', 'gzip', 'brotli'],
    rows: [
      [
        'initial JS, all chunks',
        `${initial.length} files`,
        'yes',
        ...cells(sumSizes(initial.map((f) => f.sizes))),
      ],
      ...initial.map((f) => [`· ${name(f)}`, 'initial', 'yes', ...cells(f.sizes)]),
      ['lazy JS, all chunks', `${lazy.length} files`, '', ...cells(sumSizes(lazy.map((f) => f.sizes)))],
      ...lazy.map((f) => [`· ${name(f)}`, 'lazy', loaded(f), ...cells(f.sizes)]),
    ],
    notes: [
      'initial = the entry script and the chunks index.html preloads; lazy = loaded by dynamic import() when needed.',
      "The active language's Clerk texts (en-US or fr-FR chunk) are lazy but loaded before the first render.",
    ],
  };
}
