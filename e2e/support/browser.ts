import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { LANGUAGE_STORAGE_KEY } from '../../web/src/lib/i18n/language-store.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless Debian Chromium; the flags keep it from reaching for Google's services on a closed network. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. Install it with "apt-get update && apt-get install -y chromium" ` +
        '(or set CHROMIUM_PATH). The end-to-end tests drive the real Clerk UI in it.',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...(process.env.TEST_CHROMIUM_ARGS?.split(' ').filter(Boolean) ?? []),
      ...extraArgs,
    ],
  });
}

/**
 * The Chromium the files of one test process share (a group runs several files one after the other, see
 * scripts/test-group.mjs): launching one costs about a core-second, and its tabs, handed from test to test
 * (page-pool.ts), keep what they compiled. Each file takes it in its `before` and gives it back in its
 * `after`; it closes shortly after the last file gave it back, unless the next file takes it first.
 */
let shared: { browser: Promise<Browser>; users: number; closing?: NodeJS.Timeout } | null = null;
const CLOSE_AFTER_MS = 1_000;

export async function takeSharedBrowser(): Promise<Browser> {
  if (shared) {
    clearTimeout(shared.closing);
    const browser = await shared.browser.catch(() => null);
    if (browser?.isConnected()) {
      shared.users++;
      return browser;
    }
  }
  const taken = { browser: launchBrowser(), users: 1 };
  shared = taken;
  return taken.browser;
}

export function giveBackSharedBrowser(): void {
  const current = shared;
  if (!current || --current.users > 0) return;
  current.closing = setTimeout(() => {
    if (shared === current) shared = null;
    void current.browser.then((b) => b.close()).catch(() => {});
  }, CLOSE_AFTER_MS);
}

/**
 * A fresh browser profile whose interface starts in `language` (the product's default is French; tests
 * name the Clerk UI's buttons in English), or with no choice at all, as a newcomer's, for `null`.
 * `locale` is the browser's own language (navigator.language, Accept-Language); Playwright's default
 * when omitted.
 */
export async function newContext(
  browser: Browser,
  language: 'EN' | 'FR' | null = 'EN',
  locale?: string,
): Promise<BrowserContext> {
  const context = await browser.newContext(locale ? { locale } : {});
  if (language) await context.addInitScript(presetLanguage, { key: LANGUAGE_STORAGE_KEY, language });
  return context;
}

/** Runs in the page before its scripts: a stored choice counts as the user's, and a later toggle is kept. */
function presetLanguage({ key, language }: { key: string; language: string }) {
  if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, language);
}
