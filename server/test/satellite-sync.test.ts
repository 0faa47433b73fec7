import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClerkClient } from '@clerk/backend';
import { BAPI_PATH } from '../src/app.ts';
import { startEmbeddedServer, TEST_BACKENDS, type EmbeddedServer } from './support/embedded-server.ts';

const SATELLITE = 'satellite.localhost:4000';
const PAGE = `http://${SATELLITE}/orders?tab=open`;
const DOCUMENT = { 'sec-fetch-dest': 'document', accept: 'text/html' };

/** A server whose instance has one satellite domain, declared through the Backend API as an operator would. */
async function withSatellite(env: Record<string, string>, databaseUrl: string | undefined) {
  const server = await startEmbeddedServer({ databaseUrl, env });
  const clerk = createClerkClient({
    secretKey: server.app.identity!.secretKey,
    apiUrl: `${server.origin}${BAPI_PATH}`,
  });
  await clerk.domains.add({ name: SATELLITE, is_satellite: true, proxy_url: `http://${SATELLITE}/__clerk` });
  return server;
}

function signIn(server: EmbeddedServer, redirect: string | string[], headers: Record<string, string> = {}) {
  const query = new URLSearchParams();
  for (const r of [redirect].flat()) query.append('__clerk_redirect_url', r);
  return server.app.fastify.inject({
    method: 'GET',
    url: `/sign-in?${query}`,
    headers: { ...DOCUMENT, ...headers },
  });
}

/** The web app's page, as every path of it is served: no redirect. */
function assertThePage(res: Awaited<ReturnType<typeof signIn>>, label: string) {
  assert.equal(res.statusCode, 200, `${label}: ${res.statusCode} ${res.headers.location ?? ''}`);
  assert.equal(res.headers.location, undefined, label);
  assert.match(res.body, /<title>test<\/title>/, `${label}: the web app's index.html`);
}

/**
 * The primary's half of @clerk/backend 2.10.1's development sync (docs/satellites.md, "Production or
 * development keys"): a development satellite's server sends a signed-out page load to
 * `<product>/sign-in?__clerk_redirect_url=<page>`; the product's server answers as a Clerk server SDK's
 * middleware does (`primary-responds-to-syncing`), only for a page exactly on a satellite's origin.
 */
for (const backend of TEST_BACKENDS) {
  describe(`a development satellite's sync through the product's sign-in page [${backend.name}]`, () => {
    let server: EmbeddedServer;
    let devBrowser: string;
    before(async () => {
      server = await withSatellite({ IDENTITY_KEYS: 'development' }, backend.databaseUrl);
      const res = await server.app.fastify.inject({
        method: 'POST',
        url: '/__clerk/v1/dev_browser?__clerk_api_version=2025-04-10&_clerk_js_version=5.90.0',
        headers: { origin: server.origin },
      });
      assert.equal(res.statusCode, 200, res.body);
      devBrowser = res.json().id;
      assert.ok(devBrowser, 'a dev-browser token');
    });
    after(() => server.stop());

    it('sends a page load back (307) to the satellite page with its dev-browser token and __clerk_synced', async () => {
      const res = await signIn(server, PAGE, { cookie: `__clerk_db_jwt=${devBrowser}` });
      assert.equal(res.statusCode, 307, res.body);
      const location = new URL(res.headers.location as string);
      assert.equal(location.origin, `http://${SATELLITE}`);
      assert.equal(location.pathname, '/orders');
      assert.equal(location.searchParams.get('tab'), 'open');
      assert.equal(location.searchParams.get('__clerk_db_jwt'), devBrowser);
      assert.equal(location.searchParams.get('__clerk_synced'), 'true');
      assert.equal(res.headers['cache-control'], 'no-store');
    });

    it('gives only the cookie’s token: a __clerk_db_jwt in the URL is not passed on', async () => {
      const res = await server.app.fastify.inject({
        method: 'GET',
        url: `/sign-in?${new URLSearchParams({ __clerk_redirect_url: PAGE, __clerk_db_jwt: 'dvb_planted' })}`,
        headers: DOCUMENT,
      });
      assert.equal(res.statusCode, 307, res.body);
      const location = new URL(res.headers.location as string);
      assert.equal(location.searchParams.get('__clerk_db_jwt'), null);
      assert.equal(location.searchParams.get('__clerk_synced'), 'true');
      assert.doesNotMatch(res.headers.location as string, /dvb_planted/);
    });

    it('sends nothing anywhere but exactly a satellite origin: no open redirect', async () => {
      const cookie = `__clerk_db_jwt=${devBrowser}`;
      for (const target of [
        'http://evil.localhost:4000/',
        `http://sub.${SATELLITE}/`,
        `http://evil${SATELLITE}/`,
        'http://satellite.localhost:4001/',
        'http://satellite.localhost/',
        `http://user:pw@${SATELLITE}/`,
        `http://${SATELLITE}@evil.example/`,
        `//${SATELLITE}/`,
        '/dashboard',
        `javascript://${SATELLITE}/%0aalert(1)`,
        'https://evil.example/',
        // The product's own origin is no satellite.
        server.origin,
      ]) {
        const res = await signIn(server, target, { cookie });
        assertThePage(res, target);
        assert.doesNotMatch(
          JSON.stringify(res.headers),
          new RegExp(devBrowser),
          `${target}: the token stays`,
        );
      }
      // Two pages named: neither is chosen.
      assertThePage(await signIn(server, [PAGE, 'http://evil.localhost:4000/'], { cookie }), 'two pages');
    });

    it('serves the page to a request that is no page load, and to the sign-in page without the parameter', async () => {
      const cookie = `__clerk_db_jwt=${devBrowser}`;
      const fetched = await server.app.fastify.inject({
        method: 'GET',
        url: `/sign-in?${new URLSearchParams({ __clerk_redirect_url: PAGE })}`,
        headers: { 'sec-fetch-dest': 'empty', accept: '*/*', cookie },
      });
      assertThePage(fetched, 'a fetch');
      assertThePage(
        await server.app.fastify.inject({ method: 'GET', url: '/sign-in', headers: { ...DOCUMENT, cookie } }),
        'no parameter',
      );
    });
  });
}

describe("production keys: the product's sign-in page is only the page", () => {
  let server: EmbeddedServer;
  before(async () => {
    server = await withSatellite({ IDENTITY_KEYS: 'production' }, undefined);
  });
  after(() => server.stop());

  it('answers a satellite page load with the page, no redirect (the sync goes through the provider)', async () => {
    assertThePage(await signIn(server, PAGE, { cookie: '__clerk_db_jwt=dvb_anything' }), 'production keys');
  });
});
