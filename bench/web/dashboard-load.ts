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
  const done = `(() => {
    const marks = window[${JSON.stringify(MARKS_GLOBAL)}];
    const nav = performance.getEntriesByType('navigation')[0];
    return !!marks && ${JSON.stringify(MILESTONES.map((m) => m.key))}.every((k) => marks[k] > 0) &&
      !!nav && nav.loadEventEnd > 0;
  })()`;
  try {
    await page.waitForFunction(done, null, { timeout: UI_WAIT_MS });
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
