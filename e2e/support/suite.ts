import { after, before } from 'node:test';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { launchBrowser, newContext } from './browser.ts';
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

/** One real server (embedded provider, fresh PGlite) and one headless Chromium per test file. */
export function useSuite(opts: { env?: Record<string, string> } = {}): Suite {
  const suite = {} as Suite;
  const contexts: BrowserContext[] = [];
  before(async () => {
    suite.server = await startServer({ env: opts.env });
    suite.browser = await launchBrowser();
    suite.newPage = async ({ language = 'EN', locale } = {}) => {
      const context = await newContext(suite.browser, language, locale);
      contexts.push(context);
      return { context, page: await context.newPage() };
    };
  });
  after(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await suite.browser?.close();
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
