import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { newContext } from './browser.ts';

// A browser profile's first page load costs Chromium about 2.5 core-seconds more than a later load in the
// same tab: a new renderer process, and clerk-js and the product compiled again (an off-the-record profile
// keeps no code cache, a renderer keeps what it compiled). The end-to-end run opened ~200 profiles. So a
// test's profile, once the test has ended, is emptied (cookies, storage, other tabs, listeners) and its tab
// handed to a later test of the same process as a fresh profile; one that a test changed in a way emptying
// does not undo (routes, init scripts, permissions, a CDP session, a fake clock…) is closed instead.
// docs/testing.md, "A profile is emptied and handed on".

/** Methods that change a profile or tab beyond what emptying it undoes. */
const CONTEXT_CHANGES = [
  'route',
  'routeFromHAR',
  'routeWebSocket',
  'addInitScript',
  'grantPermissions',
  'setOffline',
  'setExtraHTTPHeaders',
  'setGeolocation',
  'setHTTPCredentials',
  'exposeBinding',
  'exposeFunction',
  'newCDPSession',
  'setDefaultTimeout',
  'setDefaultNavigationTimeout',
] as const;
const PAGE_CHANGES = [
  'route',
  'routeFromHAR',
  'routeWebSocket',
  'addInitScript',
  'exposeBinding',
  'exposeFunction',
  'setExtraHTTPHeaders',
  'setViewportSize',
  'emulateMedia',
  'setDefaultTimeout',
  'setDefaultNavigationTimeout',
] as const;
const CLOCK_CHANGES = [
  'install',
  'fastForward',
  'pauseAt',
  'resume',
  'runFor',
  'setFixedTime',
  'setSystemTime',
] as const;

/** What adds a listener to a profile or a tab. Playwright's own listeners are added before a test has it. */
const LISTENER_ADDERS = ['on', 'addListener', 'once', 'prependListener', 'prependOnceListener'] as const;
type Listenable = { removeListener(event: string, listener: (...args: never[]) => unknown): unknown };

/** Web storage and the like; cookies are cleared for every site by clearCookies. */
const STORAGE_TYPES = 'local_storage,indexeddb,service_workers,cache_storage,file_systems,websql';

export interface Profile {
  context: BrowserContext;
  page: Page;
}

/** What a profile's tabs did lately, for a failed test's report (`describeProfile`). */
interface Trace {
  /** Console errors, page errors, failed requests and error answers, oldest first, the last TRACE_EVENTS. */
  events: string[];
  /** Requests sent and not yet answered, with when they left. */
  pending: Map<Request, number>;
}
const TRACE_EVENTS = 12;

interface Lease extends Profile {
  key: string;
  /** Changed beyond what emptying undoes: closed, never handed on. */
  changed: boolean;
  /** Emptied since a test last had it. */
  clean: boolean;
  /** Given back by the test that had it. */
  released: boolean;
  /**
   * Its tab loaded a page or sent a write after it was given back: a later test still uses it (a file kept
   * in a variable the tab an earlier test opened). It is not handed to another test until the file ends:
   * two tests would share one browser, cookies and all.
   */
  usedAfterRelease: boolean;
  /** Every origin a frame of the profile has shown, whose storage emptying clears. */
  origins: Set<string>;
  /** Listeners added to the profile or its tab since it was handed out, removed by emptying. */
  listeners: { target: Listenable; event: string; listener: (...args: never[]) => unknown }[];
  /** The CDP call that clears storage, kept before the test can be handed the profile. */
  clearStorage: (origin: string) => Promise<unknown>;
  /** What its tabs did since it was handed out. */
  trace: Trace;
}

/** Profiles ended tests left, per browser, ready to be emptied and handed on. */
const idle = new WeakMap<Browser, Lease[]>();

/**
 * A fresh-looking profile with one tab: a profile an earlier test left, emptied, when one with the same
 * language settings is free, else a new one.
 */
export async function takeProfile(
  browser: Browser,
  language: 'EN' | 'FR' | null,
  locale: string | undefined,
): Promise<Profile & { release(): void; describe(): Promise<string> }> {
  const key = `${language}|${locale ?? ''}`;
  const free = idle.get(browser) ?? [];
  idle.set(browser, free);
  let lease: Lease | null = null;
  const fits = (l: Lease) => l.key === key && !l.usedAfterRelease;
  for (let i = free.findIndex(fits); i !== -1; i = free.findIndex(fits)) {
    const candidate = free.splice(i, 1)[0]!;
    if (await empty(candidate)) {
      lease = candidate;
      break;
    }
    await candidate.context.close().catch(() => {});
  }
  lease ??= await openLease(browser, key, language, locale);
  const taken = lease;
  taken.clean = false;
  taken.released = false;
  watch(taken);
  return {
    context: taken.context,
    page: taken.page,
    release() {
      taken.released = true;
      if (!free.includes(taken)) free.push(taken);
    },
    describe: () => describeProfile(taken),
  };
}

/**
 * Empties the profiles a browser's ended tests left, at a file's end: their tabs stop the last test's
 * scripts (clerk-js refreshes its token every minute) while they wait for the next file, or the browser's
 * close. One that does not empty is closed.
 */
export async function emptyIdleProfiles(browser: Browser): Promise<void> {
  const free = idle.get(browser) ?? [];
  for (const lease of [...free]) {
    if (await empty(lease)) continue;
    free.splice(free.indexOf(lease), 1);
    await lease.context.close().catch(() => {});
  }
}

async function openLease(
  browser: Browser,
  key: string,
  language: 'EN' | 'FR' | null,
  locale: string | undefined,
): Promise<Lease> {
  const context = await newContext(browser, language, locale);
  const page = await context.newPage();
  // The CDP session is opened before the test's hands are on the profile: a test's own marks it changed.
  const cdp = await context.newCDPSession(page);
  const lease: Lease = {
    key,
    context,
    page,
    changed: false,
    clean: true,
    released: false,
    usedAfterRelease: false,
    origins: new Set(),
    listeners: [],
    clearStorage: (origin) => cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: STORAGE_TYPES }),
    trace: { events: [], pending: new Map() },
  };
  markChanges(lease, context, CONTEXT_CHANGES);
  markChanges(lease, context.clock, CLOCK_CHANGES);
  markChanges(lease, page, PAGE_CHANGES);
  // Emptying removes the listeners a test added (a dialog handler, a response collector), not Playwright's
  // own: closing a profile waits on one of those.
  for (const target of [context, page] as unknown as Record<string, unknown>[]) {
    for (const name of LISTENER_ADDERS) {
      const original = target[name] as (event: string, listener: (...args: never[]) => unknown) => unknown;
      target[name] = (event: string, listener: (...args: never[]) => unknown) => {
        lease.listeners.push({ target: target as unknown as Listenable, event, listener });
        return original.call(target, event, listener);
      };
    }
  }
  return lease;
}

/** Marks the lease changed when one of `names` is called on `target`. */
function markChanges(lease: Lease, target: object, names: readonly string[]) {
  const methods = target as Record<string, unknown>;
  for (const name of names) {
    const original = methods[name];
    if (typeof original !== 'function') continue;
    methods[name] = (...args: unknown[]) => {
      lease.changed = true;
      return (original as (...a: unknown[]) => unknown).apply(target, args);
    };
  }
}

/**
 * Watches a profile for its test: the origins its frames show, and the changes made in the tabs it opens.
 * Added again each time it is handed on (emptying removes the listeners added since).
 */
function watch(lease: Lease) {
  const seen = (url: string) => {
    if (url.startsWith('http')) lease.origins.add(new URL(url).origin);
  };
  lease.page.on('framenavigated', (frame) => seen(frame.url()));
  lease.context.on('page', (other) => {
    markChanges(lease, other, PAGE_CHANGES);
    other.on('framenavigated', (frame) => seen(frame.url()));
  });
  const trace: Trace = { events: [], pending: new Map() };
  lease.trace = trace;
  const note = (line: string) => {
    trace.events.push(`${new Date().toISOString().slice(11, 23)} ${line.replace(/\s+/g, ' ').slice(0, 300)}`);
    if (trace.events.length > TRACE_EVENTS) trace.events.shift();
  };
  const { context } = lease;
  context.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') note(`console.${m.type()}: ${m.text()}`);
  });
  context.on('weberror', (e) => note(`page error: ${e.error().message}`));
  context.on('request', (r) => {
    trace.pending.set(r, Date.now());
    if (lease.released && !lease.usedAfterRelease && usedByTest(r)) {
      lease.usedAfterRelease = true;
      process.stderr.write(
        `page-pool: a profile given back when its test ended is still used (${r.method()} ${pathOf(r.url())}); ` +
          'open a tab several tests share in a before() hook. It is not handed to another test.\n',
      );
    }
  });
  context.on('requestfinished', (r) => trace.pending.delete(r));
  context.on('requestfailed', (r) => {
    trace.pending.delete(r);
    note(`request failed: ${r.method()} ${pathOf(r.url())} (${r.failure()?.errorText ?? '?'})`);
  });
  context.on('response', (r) => {
    if (r.status() >= 400) note(`answer ${r.status()}: ${r.request().method()} ${pathOf(r.url())}`);
  });
}

/**
 * A request only a test's hands make: a page load, or a write other than those clerk-js and the product send
 * on their own in an idle tab (the token refreshed every minute, the session touched on focus).
 */
function usedByTest(r: Request): boolean {
  if (r.isNavigationRequest()) return true;
  return r.method() !== 'GET' && !/\/(tokens|touch)(\/|$)/.test(pathOf(r.url()));
}

/** A URL without its query (which may hold a token) and with the origin kept short. */
const pathOf = (url: string) => {
  try {
    const u = new URL(url);
    return u.protocol.startsWith('http') ? `${u.port ? `:${u.port}` : u.host}${u.pathname}` : u.protocol;
  } catch {
    return '?';
  }
};

/**
 * One line on where a profile's tabs stand, for a failed test: each tab's page and the start of what it
 * shows, the requests still unanswered, and the last errors. Never a cookie, a token or a field's value.
 */
async function describeProfile(lease: Lease): Promise<string> {
  const parts: string[] = [];
  for (const page of lease.context.pages()) {
    if (page.isClosed()) continue;
    let timer: NodeJS.Timeout | undefined;
    const shown = await Promise.race([
      page
        .evaluate(() => document.body?.innerText ?? '')
        .then((text) => text.replace(/\s+/g, ' ').trim().slice(0, 200))
        .catch((e: Error) => `(unreadable: ${e.message.split('\n')[0]})`),
      new Promise<string>((resolve) => (timer = setTimeout(() => resolve('(no answer in 3 s)'), 3_000))),
    ]).finally(() => clearTimeout(timer));
    parts.push(`tab ${pathOf(page.url())}${new URL(page.url()).hash.split('?')[0]} shows "${shown}"`);
  }
  const now = Date.now();
  const pending = [...lease.trace.pending].map(
    ([r, since]) => `${r.method()} ${pathOf(r.url())} for ${((now - since) / 1000).toFixed(1)} s`,
  );
  if (pending.length) parts.push(`unanswered: ${pending.slice(0, 8).join(', ')}`);
  if (lease.trace.events.length) parts.push(`last errors: ${lease.trace.events.join(' | ')}`);
  return parts.join(' ; ');
}

/**
 * Empties a profile as a new one: other tabs closed, the tab on about:blank (its scripts stopped),
 * listeners the test added removed, cookies of every site and storage of every origin it showed cleared.
 * False when that cannot be done (the test changed or closed it).
 */
async function empty(lease: Lease): Promise<boolean> {
  if (lease.changed || lease.page.isClosed()) return false;
  if (lease.clean) return true;
  let timer: NodeJS.Timeout | undefined;
  // A tab held by a dialog or a hung script does not empty: it is closed instead.
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), EMPTY_WITHIN_MS)));
  try {
    return await Promise.race([emptying(lease), late]);
  } finally {
    clearTimeout(timer);
  }
}

const EMPTY_WITHIN_MS = 5_000;

async function emptying(lease: Lease): Promise<boolean> {
  try {
    for (const other of lease.context.pages()) if (other !== lease.page) await other.close();
    for (const { target, event, listener } of lease.listeners.splice(0))
      target.removeListener(event, listener);
    await lease.page.evaluate(() => sessionStorage.clear()).catch(() => {});
    await lease.page.goto('about:blank');
    await lease.context.clearCookies();
    for (const origin of lease.origins) await lease.clearStorage(origin);
    lease.origins.clear();
    lease.clean = true;
    lease.usedAfterRelease = false;
    return true;
  } catch {
    return false;
  }
}
