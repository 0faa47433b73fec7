import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AppConfig } from '../src/lib/app-config.ts';
import { clerkStartupRequests } from '../src/lib/clerk-preload.ts';

const origin = 'http://localhost:3000';
const embedded: AppConfig = {
  publishableKey: 'pk_live_Y2xlcmsubG9jYWxob3N0JA',
  proxyUrl: '/__clerk',
  clerkJSUrl: '/__clerk-js/5.90.0/clerk.browser.js',
  identity: 'embedded',
  devOutbox: true,
};

describe("clerk-js's first two requests, asked for before it loads (issue #13)", () => {
  test('the URLs clerk-js 5.90.0 builds through the proxy path', () => {
    assert.deepEqual(clerkStartupRequests(embedded, origin), [
      `${origin}/__clerk/v1/environment?__clerk_api_version=2025-04-10&_clerk_js_version=5.90.0`,
      `${origin}/__clerk/v1/client?__clerk_api_version=2025-04-10&_clerk_js_version=5.90.0`,
    ]);
    assert.deepEqual(
      clerkStartupRequests({ ...embedded, proxyUrl: `${origin}/__clerk/` }, origin),
      clerkStartupRequests(embedded, origin),
    );
  });

  test('nothing when the URL is not certain', () => {
    // Hosted Clerk without the proxy path: the Frontend API is another host.
    assert.deepEqual(clerkStartupRequests({ ...embedded, proxyUrl: null, identity: 'hosted' }, origin), []);
    assert.deepEqual(
      clerkStartupRequests({ ...embedded, proxyUrl: 'https://clerk.example.com/x' }, origin),
      [],
    );
    // A development instance adds the development-browser token to every request.
    assert.deepEqual(clerkStartupRequests({ ...embedded, publishableKey: 'pk_test_abc' }, origin), []);
    // Another copy of clerk-js: its version is unknown.
    assert.deepEqual(
      clerkStartupRequests({ ...embedded, clerkJSUrl: 'https://cdn.example.com/clerk.browser.js' }, origin),
      [],
    );
  });
});
