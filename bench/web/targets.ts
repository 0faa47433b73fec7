import type { Sizes } from './compressed-size.ts';
import { kib, ms, type ReportTable } from './report-table.ts';
import type { Summary } from './stats.ts';

/** Issue #13's web targets. 140 KB is read as 140,000 bytes, the stricter of KB and KiB. */
export const TARGETS = { initialJsGzipBytes: 140_000, organizationNameMedianMs: 500 } as const;

const verdict = (met: boolean) => (met ? 'met' : 'not met');

/**
 * Each target with the figure and whether it is met, and beside the initial JavaScript (what must
 * arrive before any of our code runs) the whole of ours the first screen waited for, which the
 * initial figure alone would hide.
 */
export function targetTable(
  initialJs: Sizes,
  firstScreenJs: Sizes | null,
  organizationName: Summary | null,
  runs: number,
): ReportTable {
  const rows = [
    [
      'initial JavaScript, ours (index.html’s entry and its static imports; clerk-js excluded)',
      `${kib(initialJs.raw)} raw, ${kib(initialJs.gzip)} gzip (${initialJs.gzip} B)`,
      '≤ 140 KB gzip',
      verdict(initialJs.gzip <= TARGETS.initialJsGzipBytes),
    ],
  ];
  if (firstScreenJs)
    rows.push([
      'for comparison: all our JavaScript the signed-in dashboard loads (initial + lazy chunks)',
      `${kib(firstScreenJs.raw)} raw, ${kib(firstScreenJs.gzip)} gzip`,
      '–',
      '–',
    ]);
  if (organizationName)
    rows.push([
      `time from navigation to the organisation name, cold cache (${runs} loads)`,
      `median ${ms(organizationName.median)}, p95 ${ms(organizationName.p95)}`,
      `median ≤ ${TARGETS.organizationNameMedianMs} ms`,
      verdict(organizationName.median <= TARGETS.organizationNameMedianMs),
    ]);
  return {
    title: 'Issue #13 web targets',
    head: ['target', 'measured', 'target', 'verdict'],
    rows,
    notes: [
      'gzip -9 per file, summed over the files; 140 KB is taken as 140,000 bytes.',
      'The timing is on a shared machine: compare it with a run made in the same minute, not across days.',
    ],
  };
}

/** The requests of one cold load that started before the organisation name was painted, in order. */
export function firstScreenRequestsTable(
  resources: { name: string; initiator: string; start: number; end: number }[],
  until: number,
): ReportTable {
  const shown = resources.filter((r) => r.start <= until).sort((a, b) => a.start - b.start);
  return {
    title: 'Requests of one cold load of /dashboard until the organisation name shows',
    head: ['request', 'asked by', 'start', 'end'],
    rows: shown.map((r) => [
      r.name.length > 90 ? `${r.name.slice(0, 87)}…` : r.name,
      r.initiator,
      ms(r.start),
      ms(r.end),
    ]),
    notes: [
      `Milliseconds from navigation start; the organisation name was painted at ${ms(until)}.`,
      '“link” is a preload (index.html’s for clerk-js; main.tsx’s for clerk-js’s /v1/environment and /v1/client): when clerk-js asks for the same URL it takes that answer and no second request is made.',
      'The last cold load of the timed runs; one load on a shared machine, so read the order, not the milliseconds.',
    ],
  };
}
