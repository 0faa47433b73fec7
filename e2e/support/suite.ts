import { after, afterEach, before, beforeEach } from 'node:test';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { giveBackSharedBrowser, takeSharedBrowser } from './browser.ts';
import { emptyIdleProfiles, takeProfile } from './page-pool.ts';
import { UI_WAIT_MS } from './timeouts.ts';
import { startServer, removeDataDir, type TestServer } from './server.ts';

export interface Suite {
  server: TestServer;
  browser: Browser;
  /**
   * A fresh browser profile (own cookies and storage) with one page. Its interface starts in English
   * (the product's default is French) so that tests can name the Clerk UI's buttons; pass
   * `{ language: null }` for a browser that has chosen nothing, as a newcomer's; `locale` sets the
   * browser's own language (e.g. 'fr-FR' for a French browser).
   */
  newPage(opts?: {
    language?: 'EN' | 'FR' | null;
    locale?: string;
  }): Promise<{ context: BrowserContext; page: Page }>;
}

type Leased = Awaited<ReturnType<typeof takeProfile>>;

/** Begins the line a failed test's report has for each of its profiles (scripts/run-tests.mjs shows it). */
export const FAILURE_MARK = 'page at failure: ';

/**
 * One real server (embedded provider, fresh PGlite) per test file, and the test process's headless
 * Chromium. A profile a test opened is emptied and handed to a later test once the test has ended
 * (page-pool.ts); one opened outside a test (in a `before` hook) lasts until the file's end.
 */
export function useSuite(opts: { env?: Record<string, string> } = {}): Suite {
  const suite = {} as Suite;
  const ofFile: Leased[] = [];
  let ofTest: Leased[] | null = null;
  before(async () => {
    suite.browser = await takeSharedBrowser();
    suite.server = await startServer({ env: opts.env });
    suite.newPage = async ({ language = 'EN', locale } = {}) => {
      const profile = await takeProfile(suite.browser, language, locale);
      (ofTest ?? ofFile).push(profile);
      return { context: profile.context, page: profile.page };
    };
  });
  beforeEach(() => {
    ofTest = [];
  });
  afterEach(async (context) => {
    const profiles = ofTest ?? [];
    ofTest = null;
    // A failed test's report says where its tabs stood: a wait that expired names only what it waited for.
    // (`passed` is Node's since 20.12; its types do not have it yet.)
    const t = context as unknown as { passed?: boolean; diagnostic(message: string): void };
    if (t.passed === false) {
      for (const profile of [...profiles, ...ofFile])
        t.diagnostic(`${FAILURE_MARK}${await profile.describe().catch((e: Error) => e.message)}`);
    }
    for (const profile of profiles) profile.release();
  });
  after(async () => {
    if (suite.browser) {
      for (const profile of ofFile) profile.release();
      await emptyIdleProfiles(suite.browser);
      giveBackSharedBrowser();
    }
    await suite.server?.stop();
    if (suite.server) removeDataDir(suite.server.dataDir);
  });
  return suite;
}

/**
 * Resolves with the next Frontend API response for the logical `method` (clerk-js tunnels PATCH and
 * DELETE through POST + `_method`) whose path matches `pathPart`, as the browser saw it.
 */
export function nextFapiResponse(page: Page, method: string, pathPart: RegExp): Promise<Response> {
  return page.waitForResponse(
    (r) => {
      const url = new URL(r.url());
      const logical = url.searchParams.get('_method')?.toUpperCase() ?? r.request().method();
      return url.pathname.includes('/__clerk/v1/') && pathPart.test(url.pathname) && logical === method;
    },
    { timeout: UI_WAIT_MS },
  );
}

export async function errorCodeOf(response: Response): Promise<string | undefined> {
  const body = (await response.json()) as { errors?: { code: string }[] };
  return body.errors?.[0]?.code;
}
