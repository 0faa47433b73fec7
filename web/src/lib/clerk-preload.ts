import type { AppConfig } from './app-config.ts';

/**
 * The Frontend API version clerk-js 5.90.0 sends with every request (its SUPPORTED_FAPI_VERSION). If a
 * newer clerk-js sends another one, the preloads below no longer match its requests: the page then
 * makes them twice, and the browser warns about an unused preload.
 */
const CLERK_FAPI_VERSION = '2025-04-10';

/**
 * The two requests clerk-js makes as soon as it loads, on every page: the instance's environment and
 * this browser's client (who is signed in), as the exact URLs it builds. Only when they are certain:
 * the Frontend API on this origin (the proxy path; hosted Clerk without it lives on another host), a
 * production-style key (a development instance adds the development-browser token to each request)
 * and our own copy of clerk-js, whose version is part of the query.
 */
export function clerkStartupRequests(config: AppConfig, origin: string): string[] {
  const version = /\/__clerk-js\/([^/]+)\/clerk\.browser\.js$/.exec(config.clerkJSUrl)?.[1];
  if (!version || !config.proxyUrl || !config.publishableKey.startsWith('pk_live_')) return [];
  const proxy = new URL(config.proxyUrl, origin);
  if (proxy.origin !== origin || proxy.search || proxy.hash) return [];
  const base = `${proxy.origin}${proxy.pathname.replace(/\/+$/, '')}/v1`;
  const query = `__clerk_api_version=${CLERK_FAPI_VERSION}&_clerk_js_version=${version}`;
  return [`${base}/environment?${query}`, `${base}/client?${query}`];
}

/**
 * Asks for them now, while the app's own scripts and clerk-js are still downloading and running:
 * clerk-js's fetch then takes the answer the browser already has (or is receiving). `use-credentials`
 * is clerk-js's own mode (`credentials: 'include'`); a preload of another mode would not be used.
 */
export function preloadClerkRequests(config: AppConfig): void {
  for (const href of clerkStartupRequests(config, window.location.origin)) {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.as = 'fetch';
    link.crossOrigin = 'use-credentials';
    link.href = href;
    document.head.append(link);
  }
}

/**
 * Runs clerk-js as soon as the config says which one, instead of when ClerkProvider first renders (after
 * the app's own code has downloaded and run): clerk-js is already in the HTTP cache (index.html preloads
 * it) and takes ~100 ms to evaluate, which now overlaps the app's start. The tag carries what
 * ClerkProvider's loader would give it, which then finds clerk-js ready (or its tag, and waits for it)
 * and calls load() itself, with the app's options, as before.
 */
export function startClerkJs(config: AppConfig): void {
  if (document.querySelector('script[data-clerk-js-script]')) return;
  const script = document.createElement('script');
  script.src = config.clerkJSUrl;
  script.async = true;
  script.crossOrigin = 'anonymous';
  script.setAttribute('data-clerk-js-script', 'true');
  script.setAttribute('data-clerk-publishable-key', config.publishableKey);
  if (config.proxyUrl) script.setAttribute('data-clerk-proxy-url', config.proxyUrl);
  document.head.append(script);
}
