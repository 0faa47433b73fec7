import type { Page } from 'playwright-core';
import { UI_WAIT_MS } from '../../e2e/support/timeouts.ts';
import { MARKS_GLOBAL, MILESTONES, type MilestoneKey } from './dashboard-milestones.ts';

/** One load of /dashboard, in ms since navigation start, and what it fetched. */
export interface DashboardLoad {
  fcp: number;
  domContentLoaded: number;
  load: number;
  milestones: Record<MilestoneKey, number>;
  requests: number;
  /** bytes over the wire (headers and bodies) as the Resource Timing API reports them */
  transferred: number;
  /** every request after the document's, in the order they started (Resource Timing) */
  resources: ResourceEntry[];
}

export interface ResourceEntry {
  /** path and query, for this origin's requests */
  name: string;
  /** what asked for it: `link` (a preload), `script`, `fetch`, `css`… */
  initiator: string;
  start: number;
  end: number;
}

export const DASHBOARD_PATH = '/dashboard';

/**
 * Navigates (or reloads, for a warm cache) and waits until every milestone has painted and the load
 * event has fired, then reads the page's own timings.
 */
export async function loadDashboard(
  page: Page,
  origin: string,
  how: 'navigate' | 'reload',
): Promise<DashboardLoad> {
  if (how === 'navigate') await page.goto(`${origin}${DASHBOARD_PATH}`, { waitUntil: 'commit' });
  else await page.reload({ waitUntil: 'commit' });
  // A function, not a string: the page's Content-Security-Policy forbids eval, which a string predicate needs.
  const done = ({ global, keys }: { global: string; keys: string[] }) => {
    const marks = (window as unknown as Record<string, Record<string, number> | undefined>)[global];
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return !!marks && keys.every((k) => marks[k]! > 0) && !!nav && nav.loadEventEnd > 0;
  };
  try {
    await page.waitForFunction(
      done,
      { global: MARKS_GLOBAL, keys: MILESTONES.map((m) => m.key) },
      {
        timeout: UI_WAIT_MS,
      },
    );
  } catch (error) {
    const marks = await page.evaluate(`window[${JSON.stringify(MARKS_GLOBAL)}]`).catch(() => null);
    throw new Error(
      `The dashboard did not finish loading at ${page.url()} (milestones: ${JSON.stringify(marks)})`,
      {
        cause: error,
      },
    );
  }
  return (await page.evaluate(`(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const resources = performance.getEntriesByType('resource');
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return {
      fcp: fcp ? fcp.startTime : NaN,
      domContentLoaded: nav.domContentLoadedEventEnd,
      load: nav.loadEventEnd,
      milestones: { ...window[${JSON.stringify(MARKS_GLOBAL)}] },
      requests: 1 + resources.length,
      transferred: nav.transferSize + resources.reduce((sum, r) => sum + r.transferSize, 0),
      resources: resources.map((r) => ({
        name: r.name.startsWith(location.origin) ? r.name.slice(location.origin.length) : r.name,
        initiator: r.initiatorType,
        start: r.startTime,
        end: r.responseEnd,
      })),
    };
  })()`)) as DashboardLoad;
}

/** Paths of the requests a page sends until it is told to stop listening. */
export function recordRequests(page: Page): () => string[] {
  const paths: string[] = [];
  const listener = (request: { url(): string }) => paths.push(new URL(request.url()).pathname);
  page.on('request', listener);
  return () => {
    page.off('request', listener);
    return paths;
  };
}
