/**
 * The web product's weight and speed: issue #13's targets (our initial JavaScript, raw and gzip; the time
 * to the organisation name on the signed-in dashboard, median and p95 over cold loads; each met or not),
 * JavaScript and CSS sizes (raw, gzip, brotli) split into our code, React, the Clerk React SDK, other
 * libraries and clerk-js, the requests of a cold load until the organisation name, and the time until
 * the signed-in dashboard shows in headless Chromium, cold and warm. Prints tables and writes them to
 * bench/results/web.md.
 * Usage: node --import tsx bench/web.ts [--runs N] [--sizes-only]
 *   N loads each cold and warm (default 10); --sizes-only builds and prints the bundle tables without
 *   starting a browser (and writes nothing).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { format, resolveConfig } from 'prettier';
import { launchBrowser } from '../e2e/support/browser.ts';
import { removeDataDir, startServer } from '../e2e/support/server.ts';
import { clerkJs, clerkJsFiles, ourFiles, sumSizes, type OurFile } from './web/bundle-sizes.ts';
import { chunkTable } from './web/chunk-table.ts';
import { loadDashboard, recordRequests, type DashboardLoad } from './web/dashboard-load.ts';
import { MILESTONE_OBSERVER } from './web/dashboard-milestones.ts';
import { tableAsMarkdown, tableAsText, type ReportTable } from './web/report-table.ts';
import { signedInState, type StorageState } from './web/signed-in-state.ts';
import { firstScreenRequestsTable, targetTable } from './web/targets.ts';
import {
  clerkJsTable,
  dashboardSplitTable,
  largestPackagesTable,
  ourBundleTable,
  translationSizes,
} from './web/size-tables.ts';
import { timingTable } from './web/timing-table.ts';
import { prepareBuilds, REPO_ROOT } from './web/web-build.ts';
import { summarize } from './web/stats.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '10' }, 'sizes-only': { type: 'boolean', default: false } },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs wants a whole number of runs, got ${values.runs}`);

async function newMeasuredContext(browser: Browser, state: StorageState) {
  const context = await browser.newContext({ storageState: state });
  await context.addInitScript({ content: MILESTONE_OBSERVER });
  return context;
}

/** The first, unmeasured load: warms the server and records what a signed-in dashboard requests. */
async function discover(browser: Browser, origin: string, state: StorageState) {
  const context = await newMeasuredContext(browser, state);
  const page = await context.newPage();
  const encodings = new Set<string>();
  page.on('response', (r) => {
    if (/\.(js|css)$/.test(new URL(r.url()).pathname)) encodings.add(r.headers()['content-encoding'] ?? '');
  });
  const stop = recordRequests(page);
  await loadDashboard(page, origin, 'navigate');
  // Clerk fetches its UI chunks after it has loaded; give them time to arrive.
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => {});
  const paths = stop();
  await context.close();
  const compressed = [...encodings].filter(Boolean);
  return { paths, compressedBy: compressed.length ? compressed.join(', ') : null };
}

async function measureLoads(browser: Browser, origin: string, state: StorageState) {
  const cold: DashboardLoad[] = [];
  for (let i = 0; i < runs; i++) {
    const context = await newMeasuredContext(browser, state);
    cold.push(await loadDashboard(await context.newPage(), origin, 'navigate'));
    await context.close();
  }
  const warm: DashboardLoad[] = [];
  const context = await newMeasuredContext(browser, state);
  const page = await context.newPage();
  await loadDashboard(page, origin, 'navigate');
  for (let i = 0; i < runs; i++) warm.push(await loadDashboard(page, origin, 'reload'));
  await context.close();
  return { cold, warm };
}

const mappedDir = mkdtempSync(join(tmpdir(), 'bench-web-'));
try {
  console.log('Building and splitting the bundle…');
  const { assets, initial } = prepareBuilds(mappedDir);
  const { files, packages } = ourFiles(assets, initial, mappedDir);
  const jsSizes = (selected: OurFile[]) =>
    sumSizes(selected.filter((f) => f.path.endsWith('.js')).map((f) => f.sizes));
  const initialJs = jsSizes(files.filter((f) => f.initial));
  if (values['sizes-only']) {
    console.log();
    console.log(
      [targetTable(initialJs, null, null, 0), chunkTable(files, null), ourBundleTable(files, new Set())]
        .map(tableAsText)
        .join('\n\n'),
    );
    // Nothing else to measure; the finally below would not run after exit.
    rmSync(mappedDir, { recursive: true, force: true });
    process.exit(0);
  }

  console.log(`Starting the product server and Chromium; ${runs} cold and ${runs} warm loads of /dashboard…`);
  const server = await startServer({ env: { LOG_LEVEL: 'error' } });
  let browser: Browser | undefined;
  let measured;
  try {
    browser = await launchBrowser();
    const state = await signedInState(browser, server.origin);
    const discovery = await discover(browser, server.origin, state);
    measured = {
      ...discovery,
      ...(await measureLoads(browser, server.origin, state)),
      chromium: browser.version(),
    };
  } finally {
    await browser?.close();
    await server.stop();
    removeDataDir(server.dataDir);
  }

  const { version } = clerkJs();
  const clerkPrefix = `/__clerk-js/${version}/`;
  const clerkNames = [
    ...new Set(
      measured.paths.filter((p) => p.startsWith(clerkPrefix)).map((p) => p.slice(clerkPrefix.length)),
    ),
  ];
  const clerk = clerkJsFiles(clerkNames);
  const loadedLazy = new Set(
    measured.paths.map((p) => p.slice(1)).filter((p) => assets.includes(p) && !initial.has(p)),
  );
  const lastCold = measured.cold[measured.cold.length - 1]!;
  const tables: ReportTable[] = [
    targetTable(
      initialJs,
      jsSizes(files.filter((f) => f.initial || loadedLazy.has(f.path))),
      summarize(measured.cold.map((l) => l.milestones.organization)),
      measured.cold.length,
    ),
    dashboardSplitTable(
      files,
      loadedLazy,
      clerk,
      translationSizes(measured.paths),
      summarize(measured.cold.map((l) => l.transferred)).median,
      measured.compressedBy,
    ),
    chunkTable(files, loadedLazy),
    ourBundleTable(files, loadedLazy),
    clerkJsTable(version, clerk, clerkNames.length > 0),
    largestPackagesTable(packages),
    timingTable(measured.cold, measured.warm, `Chromium ${measured.chromium}`),
    firstScreenRequestsTable(lastCold.resources, lastCold.milestones.organization),
  ];

  console.log();
  console.log(tables.map(tableAsText).join('\n\n'));

  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim()}), load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, Node ${process.version}`;
  const markdown = [
    '# Web: bundle sizes and time to the signed-in dashboard',
    '',
    `Made by \`node --import tsx bench/web.ts --runs ${runs}\` on ${new Date().toISOString().slice(0, 10)}; ${machine}. ` +
      'The machine is shared: the timings are indicative.',
    '',
    ...tables.map((t) => `${tableAsMarkdown(t)}\n`),
  ].join('\n');
  const out = join(REPO_ROOT, 'bench', 'results', 'web.md');
  mkdirSync(join(REPO_ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(out, await format(markdown, { ...(await resolveConfig(out)), filepath: out }));
  console.log(`\nWritten to ${out.slice(REPO_ROOT.length)}`);
} finally {
  rmSync(mappedDir, { recursive: true, force: true });
}
