import type { DashboardLoad } from './dashboard-load.ts';
import { MILESTONES } from './dashboard-milestones.ts';
import { kib, ms, type ReportTable } from './report-table.ts';
import { summarize } from './stats.ts';

export function timingTable(cold: DashboardLoad[], warm: DashboardLoad[], chromium: string): ReportTable {
  const metrics: [string, (l: DashboardLoad) => number, (v: number) => string][] = [
    ['first contentful paint', (l) => l.fcp, ms],
    ['DOMContentLoaded', (l) => l.domContentLoaded, ms],
    ['load event', (l) => l.load, ms],
    ...MILESTONES.map((m): [string, (l: DashboardLoad) => number, (v: number) => string] => [
      m.label,
      (l) => l.milestones[m.key],
      ms,
    ]),
    ['requests', (l) => l.requests, (v) => String(Math.round(v))],
    ['transferred', (l) => l.transferred, kib],
  ];
  const columns = (
    loads: DashboardLoad[],
    pick: (l: DashboardLoad) => number,
    fmt: (v: number) => string,
  ) => {
    const s = summarize(loads.map(pick));
    return [fmt(s.median), fmt(s.p95), `${fmt(s.min)} – ${fmt(s.max)}`];
  };
  return {
    title: `Signed-in /dashboard in headless Chromium: time from navigation start (${cold.length} cold, ${warm.length} warm runs)`,
    head: [
      'metric',
      'cold median',
      'cold p95',
      'cold min – max',
      'warm median',
      'warm p95',
      'warm min – max',
    ],
    rows: metrics.map(([label, pick, fmt]) => [
      label,
      ...columns(cold, pick, fmt),
      ...columns(warm, pick, fmt),
    ]),
    notes: [
      'cold: a new browser context per run (empty HTTP cache, the signed-in cookies and storage); warm: one context, the page reloaded (cache filled by a first load).',
      'A milestone is the start of the first animation frame after its element entered the DOM (a MutationObserver in the page), so it is the frame that paints it.',
      'The first contentful paint is index.html’s own loading line, painted before any script has run.',
      'p95 is nearest-rank: with fewer than 20 runs it is the slowest run.',
      `The real product server on 127.0.0.1 (PGlite, development instance), no network latency; ${chromium}. One unmeasured load first warms the server.`,
    ],
  };
}
