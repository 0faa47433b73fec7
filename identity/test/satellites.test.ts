import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { sha256 } from '../src/crypto/secrets.ts';
import { derivedDomainId } from '../src/domains/domains.ts';
import { InstanceSettingsError, parseInstanceSettings } from '../src/instance/settings/schema.ts';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { signInWithPassword, signUp } from './support/flows.ts';
import {
  FAPI,
  Harness,
  PUBLIC_URL,
  uniqueEmail,
  type Browser,
  type FapiResponse,
  type Json,
} from './support/harness.ts';
import { OFF_ORIGIN_REDIRECTS } from './support/redirect-attacks.ts';

/**
 * Satellite domains: the instance's domains through `@clerk/backend` 2.10.1's `domains`, and the sync a
 * signed-out satellite's clerk-js (production keys) goes through: `<satellite>/v1/client/sync` → the
 * primary's `/v1/client/sync` → `<satellite>/v1/client/link` → the page, `__clerk_synced=true`. The
 * satellite's Frontend API is its proxy URL, which forwards to this same provider; each browser below holds
 * the cookies of one domain (the primary's or the satellite's), as a real browser keeps them apart.
 */

const SATELLITE = 'http://sat.localhost:4000';
const SATELLITE_PROXY = `${SATELLITE}/__clerk`;
const OTHER_SATELLITE = 'http://other.localhost:4100';

/** A URL's path and query, which `app.inject` takes whatever host the browser would have used. */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

const syncUrl = (redirectUrl: string, extra: Record<string, string> = {}) =>
  `${FAPI}/v1/client/sync?${new URLSearchParams({ redirect_url: redirectUrl, ...extra })}`;

forEachBackend('Satellite domains (domains Backend API, /v1/client/sync and /v1/client/link)', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  let satelliteId: string;
  let other: Harness;
  let otherClerk: ClerkClient;

  before(async () => {
    h = await Harness.start(backend);
    clerk = await backendApiClient(h);
    other = await Harness.start(backend, {
      config: { secretKey: 'sk_live_otherinstancekey000000000000000000000' },
    });
    otherClerk = await backendApiClient(other);
  });
  after(async () => {
    await other.close();
    await h.close();
  });

  describe('domains through the Backend API', () => {
    it('lists the primary domain (PUBLIC_URL) and adds a satellite, as Clerk’s domain JSON', async () => {
      const listed = await clerk.domains.list();
      assert.equal(listed.totalCount, 1);
      const [primary] = listed.data;
      assert.equal(primary!.name, 'localhost:3000');
      assert.equal(primary!.isSatellite, false);
      assert.match(primary!.id, /^dmn_/);
      assert.equal(primary!.proxyUrl, `${PUBLIC_URL}${FAPI}`);

      const added = await clerk.domains.add({
        name: 'Sat.localhost:4000',
        is_satellite: true,
        proxy_url: SATELLITE_PROXY,
      });
      assert.match(added.id, /^dmn_/);
      assert.equal(added.name, 'sat.localhost:4000');
      assert.equal(added.isSatellite, true);
      assert.equal(added.proxyUrl, SATELLITE_PROXY);
      assert.equal(added.frontendApiUrl, SATELLITE_PROXY);
      assert.equal(added.accountsPortalUrl, null);
      satelliteId = added.id;
      const raw = await h.bapi('/v1/domains');
      assert.deepEqual(Object.keys(raw.json().data[1]).sort(), [
        'accounts_portal_url',
        'cname_targets',
        'development_origin',
        'frontend_api_url',
        'id',
        'is_satellite',
        'name',
        'object',
        'proxy_url',
      ]);
      // Kept in the instance settings, where a settings file would declare it.
      assert.deepEqual(h.identity.deps.settings.settings.domains?.satellites, [
        { id: added.id, name: 'sat.localhost:4000', proxyUrl: SATELLITE_PROXY },
      ]);
    });

    it('refuses a duplicate, a non-satellite, a malformed name or proxy URL, and changes nothing', async () => {
      const before = JSON.stringify(h.identity.deps.settings.settings.domains);
      await rejectsWith(
        clerk.domains.add({ name: 'sat.localhost:4000', is_satellite: true }),
        422,
        'duplicate_record',
        'name',
      );
      await rejectsWith(
        clerk.domains.add({ name: 'localhost:3000', is_satellite: true }),
        422,
        'duplicate_record',
        'name',
      );
      await rejectsWith(
        clerk.domains.add({ name: 'x.example', is_satellite: false }),
        422,
        'form_param_value_invalid',
        'is_satellite',
      );
      for (const name of [
        'https://x.example',
        'x.example/path',
        'a b.example',
        'x..example',
        '-x.example',
        'ex@mple.com',
      ]) {
        await rejectsWith(
          clerk.domains.add({ name, is_satellite: true }),
          422,
          'form_param_value_invalid',
          'name',
        );
      }
      for (const proxy_url of [
        'javascript:alert(1)',
        '/relative',
        'https://u:p@x.example/p',
        'https://x.example/?q=1',
      ]) {
        await rejectsWith(
          clerk.domains.add({ name: 'y.example', is_satellite: true, proxy_url }),
          422,
          'form_param_value_invalid',
          'proxy_url',
        );
      }
      await rejectsWith(clerk.domains.add({ name: '', is_satellite: true }), 422, 'form_param_nil', 'name');
      assert.equal(JSON.stringify(h.identity.deps.settings.settings.domains), before);
    });

    it('updates and deletes a satellite; the primary is neither changed nor deleted; unknown ids are 404', async () => {
      const tmp = await clerk.domains.add({ name: 'tmp.example.com', is_satellite: true });
      assert.equal(tmp.frontendApiUrl, 'https://clerk.tmp.example.com');
      const updated = await clerk.domains.update({
        domainId: tmp.id,
        name: 'tmp2.example.com',
        proxy_url: 'https://tmp2.example.com/__clerk',
      });
      assert.equal(updated.id, tmp.id);
      assert.equal(updated.name, 'tmp2.example.com');
      assert.equal(updated.proxyUrl, 'https://tmp2.example.com/__clerk');
      await rejectsWith(
        clerk.domains.update({ domainId: tmp.id, name: 'sat.localhost:4000' }),
        422,
        'duplicate_record',
        'name',
      );
      const primary = (await clerk.domains.list()).data[0]!;
      await rejectsWith(clerk.domains.delete(primary.id), 422, 'form_param_value_invalid');
      await rejectsWith(
        clerk.domains.update({ domainId: primary.id, name: 'evil.example' }),
        422,
        'form_param_value_invalid',
      );
      const deleted = await clerk.domains.delete(tmp.id);
      assert.equal(deleted.deleted, true);
      assert.equal(deleted.id, tmp.id);
      await rejectsWith(clerk.domains.delete(tmp.id), 404, 'resource_not_found');
      await rejectsWith(
        clerk.domains.update({ domainId: 'dmn_unknown', name: 'z.example' }),
        404,
        'resource_not_found',
      );
      assert.deepEqual(
        (await clerk.domains.list()).data.map((d) => d.name),
        ['localhost:3000', 'sat.localhost:4000'],
      );
    });

    it("another instance's secret key sees neither this instance's satellite nor can change it", async () => {
      const theirs = await otherClerk.domains.list();
      assert.deepEqual(
        theirs.data.map((d) => d.isSatellite),
        [false],
      );
      await rejectsWith(otherClerk.domains.delete(satelliteId), 404, 'resource_not_found');
      await rejectsWith(
        otherClerk.domains.update({ domainId: satelliteId, name: 'stolen.example' }),
        404,
        'resource_not_found',
      );
      assert.equal((await clerk.domains.list()).totalCount, 2);
    });
  });

  describe('the sync (production keys)', () => {
    let primaryBrowser: Browser;
    let user: { userId: string; sessionId: string };

    before(async () => {
      primaryBrowser = h.browser();
      user = await signUp(h, primaryBrowser, uniqueEmail('sat'));
    });

    /** The three hops, each with the cookies of its own domain; answers the last answer's location. */
    async function sync(satBrowser: Browser, page = `${SATELLITE}/dashboard?tab=1`) {
      const first = await satBrowser.raw('GET', syncUrl(page));
      assert.equal(first.status, 307, JSON.stringify(first.body));
      const toPrimary = new URL(first.headers.location as string);
      assert.equal(`${toPrimary.origin}${toPrimary.pathname}`, `${PUBLIC_URL}${FAPI}/v1/client/sync`);
      const second = await primaryBrowser.raw('GET', local(toPrimary.href));
      assert.equal(second.status, 307, JSON.stringify(second.body));
      return new URL(second.headers.location as string);
    }

    it('a signed-in primary: hop to the satellite’s link with a hashed, single-use token; the satellite gets the same client and session', async () => {
      const sat = h.browser({ origin: SATELLITE });
      const link = await sync(sat);
      assert.equal(`${link.origin}${link.pathname}`, `${SATELLITE_PROXY}/v1/client/link`);
      const token = link.searchParams.get('token')!;
      assert.ok(token.length >= 40);
      const rows = await h.db.query<Json>('SELECT * FROM satellite_links WHERE token_hash = $1', [
        sha256(token),
      ]);
      assert.equal(rows.length, 1);
      assert.ok(!JSON.stringify(rows).includes(token));

      const landed = await sat.raw('GET', local(link.href));
      assert.equal(landed.status, 307);
      assert.equal(landed.headers['cache-control'], 'no-store');
      const page = new URL(landed.headers.location as string);
      assert.equal(`${page.origin}${page.pathname}`, `${SATELLITE}/dashboard`);
      assert.equal(page.searchParams.get('tab'), '1');
      assert.equal(page.searchParams.get('__clerk_synced'), 'true');
      const cookie = landed.setCookies.get('__client');
      assert.ok(cookie?.value);
      assert.equal(cookie.httpOnly, true);
      assert.notEqual(cookie.value, primaryBrowser.jar.get('__client'));
      assert.equal(await h.count('client_domain_tokens', 'token_hash = $1', [sha256(cookie.value)]), 1);

      const client = await sat.get('/client');
      assert.equal(client.status, 200);
      assert.deepEqual(
        client.body.response.sessions.map((s: Json) => [s.id, s.user.id]),
        [[user.sessionId, user.userId]],
      );
      // The primary's own cookie still works.
      const primaryClient = await primaryBrowser.get('/client');
      assert.equal(primaryClient.body.response.sessions.length, 1);
    });

    it("a server-rendered satellite (@clerk/backend's authenticateRequest, production keys): handshake → the primary → the link → signed in as the primary's user", async () => {
      const sat = h.browser({ origin: null });
      const page = `${SATELLITE}/dashboard`;
      const request = (url: string) =>
        new Request(url, { headers: { accept: 'text/html', 'sec-fetch-dest': 'document' } });
      const options = { isSatellite: true, proxyUrl: SATELLITE_PROXY, signInUrl: `${PUBLIC_URL}/sign-in` };
      const first = await clerk.authenticateRequest(request(page), options);
      assert.equal(first.status, 'handshake', first.message ?? '');
      const handshake = new URL(first.headers.get('location')!);
      assert.equal(`${handshake.origin}${handshake.pathname}`, `${SATELLITE_PROXY}/v1/client/handshake`);
      assert.equal(handshake.searchParams.get('__clerk_hs_reason'), 'satellite-needs-syncing');
      const onSatellite = await sat.raw('GET', local(handshake.href));
      assert.equal(onSatellite.status, 307, JSON.stringify(onSatellite.body));
      const toPrimary = new URL(onSatellite.headers.location as string);
      assert.equal(`${toPrimary.origin}${toPrimary.pathname}`, `${PUBLIC_URL}${FAPI}/v1/client/handshake`);
      const onPrimary = await primaryBrowser.raw('GET', local(toPrimary.href));
      assert.equal(onPrimary.status, 307, JSON.stringify(onPrimary.body));
      const link = new URL(onPrimary.headers.location as string);
      assert.equal(`${link.origin}${link.pathname}`, `${SATELLITE_PROXY}/v1/client/link`);
      const landed = await sat.raw('GET', local(link.href));
      assert.ok(landed.setCookies.get('__client')?.value);
      const back = landed.headers.location as string;
      assert.ok(new URL(back).searchParams.get('__clerk_handshake_nonce'));
      const second = await clerk.authenticateRequest(request(back), options);
      assert.equal(second.status, 'signed-in', second.message ?? '');
      assert.equal(second.toAuth().userId, user.userId);
      assert.equal(second.toAuth().sessionId, user.sessionId);
      // Now the satellite's own client answers its handshake, with no hop.
      const again = await sat.raw('GET', local(handshake.href));
      assert.equal(again.status, 307);
      assert.equal(new URL(again.headers.location as string).origin, SATELLITE);
    });

    it('a link token works once: replayed, by the same or another browser, it lands signed out with nothing set', async () => {
      const sat = h.browser({ origin: SATELLITE });
      const link = await sync(sat);
      assert.equal((await sat.raw('GET', local(link.href))).status, 307);
      for (const browser of [sat, h.browser({ origin: SATELLITE })]) {
        const before = browser.jar.get('__client');
        const again = await browser.raw('GET', local(link.href));
        assert.equal(again.status, 307);
        assert.equal(new URL(again.headers.location as string).searchParams.get('__clerk_synced'), 'true');
        assert.equal(again.setCookies.has('__client'), false);
        assert.equal(browser.jar.get('__client'), before);
      }
      assert.equal(
        await h.count('satellite_links', 'token_hash = $1', [sha256(link.searchParams.get('token')!)]),
        0,
      );
    });

    it('an expired link token (past 60 s) sets nothing', async () => {
      const sat = h.browser({ origin: SATELLITE });
      const link = await sync(sat);
      h.clock.advance(61);
      const late = await sat.raw('GET', local(link.href));
      assert.equal(late.status, 307);
      assert.equal(late.setCookies.has('__client'), false);
      assert.equal((await sat.get('/client')).body.response?.sessions?.length ?? 0, 0);
    });

    it('a link token for another landing page or another satellite sets nothing', async () => {
      await clerk.domains.add({
        name: 'other.localhost:4100',
        is_satellite: true,
        proxy_url: `${OTHER_SATELLITE}/__clerk`,
      });
      const sat = h.browser({ origin: SATELLITE });
      const link = await sync(sat);
      const token = link.searchParams.get('token')!;
      const elsewhere = await sat.raw(
        'GET',
        `${FAPI}/v1/client/link?${new URLSearchParams({ token, redirect_url: `${OTHER_SATELLITE}/` })}`,
      );
      assert.equal(elsewhere.status, 307);
      assert.equal(new URL(elsewhere.headers.location as string).origin, OTHER_SATELLITE);
      assert.equal(elsewhere.setCookies.has('__client'), false);
      // Spent by that attempt.
      assert.equal((await sat.raw('GET', local(link.href))).setCookies.has('__client'), false);

      const link2 = await sync(sat);
      const otherPage = await sat.raw(
        'GET',
        `${FAPI}/v1/client/link?${new URLSearchParams({ token: link2.searchParams.get('token')!, redirect_url: `${SATELLITE}/other` })}`,
      );
      assert.equal(otherPage.setCookies.has('__client'), false);
    });

    it("another instance does not honour this instance's link token", async () => {
      await otherClerk.domains.add({
        name: 'sat.localhost:4000',
        is_satellite: true,
        proxy_url: SATELLITE_PROXY,
      });
      const link = await sync(h.browser({ origin: SATELLITE }));
      const thief = other.browser({ origin: SATELLITE });
      const res = await thief.raw('GET', local(link.href));
      assert.equal(res.status, 307);
      assert.equal(res.setCookies.has('__client'), false);
    });

    it('a signed-out primary sends the browser straight back with __clerk_synced=true and issues nothing', async () => {
      const stranger = h.browser();
      const sat = h.browser({ origin: SATELLITE });
      const links = await h.count('satellite_links');
      const first = await sat.raw('GET', syncUrl(`${SATELLITE}/`));
      const second = await stranger.raw('GET', local(first.headers.location as string));
      assert.equal(second.status, 307);
      assert.equal(second.headers.location, `${SATELLITE}/?__clerk_synced=true`);
      assert.equal(second.setCookies.size, 0);
      assert.equal(await h.count('satellite_links'), links);
      assert.equal((await h.count('clients', 'true')) >= 0, true);
    });

    it('signing out on the satellite signs out on the primary too (one client)', async () => {
      const primary = h.browser();
      await signUp(h, primary, uniqueEmail('sat-out'));
      const sat = h.browser({ origin: SATELLITE });
      const first = await sat.raw('GET', syncUrl(`${SATELLITE}/`));
      const second = await primary.raw('GET', local(first.headers.location as string));
      await sat.raw('GET', local(second.headers.location as string));
      assert.equal((await sat.get('/client')).body.response.sessions.length, 1);
      const out = await sat.delete('/client/sessions');
      assert.equal(out.status, 200, JSON.stringify(out.body));
      assert.equal((await primary.get('/client')).body.response.sessions.length, 0);
    });

    it("a sign-in through the satellite's Frontend API rotates the satellite's credential only; the primary's cookie keeps working", async () => {
      const primary = h.browser();
      const email = uniqueEmail('sat-rotate');
      await signUp(h, primary, email);
      const sat = h.browser({ origin: SATELLITE });
      const first = await sat.raw('GET', syncUrl(`${SATELLITE}/`));
      const second = await primary.raw('GET', local(first.headers.location as string));
      await sat.raw('GET', local(second.headers.location as string));
      assert.equal((await sat.delete('/client/sessions')).status, 200);
      const before = sat.jar.get('__client');
      const signedIn = await signInWithPassword(sat, email);
      assert.notEqual(sat.jar.get('__client'), before, 'the satellite credential is rotated');
      assert.notEqual(sat.jar.get('__client'), primary.jar.get('__client'));
      const seen = await primary.get('/client');
      assert.equal(seen.status, 200, JSON.stringify(seen.body));
      assert.deepEqual(
        seen.body.response.sessions.map((s: Json) => s.id),
        [signedIn.sessionId],
      );
    });

    it('refuses any redirect_url off the satellites (open redirect), at each hop, and issues nothing', async () => {
      const attacks: [string, string][] = [
        ...OFF_ORIGIN_REDIRECTS,
        ['a subdomain of the satellite', 'http://x.sat.localhost:4000/'],
        ['the satellite on another port', 'http://sat.localhost:4001/'],
        ['the satellite as userinfo', 'http://sat.localhost:4000@evil.test/'],
        ['the satellite with userinfo', 'http://u:p@sat.localhost:4000/'],
        ['the primary itself (no satellite)', `${PUBLIC_URL}/`],
        ['an unknown satellite', 'http://unknown.localhost:4000/'],
      ];
      const links = await h.count('satellite_links');
      for (const [label, url] of attacks) {
        const answers: FapiResponse[] = [
          await h.browser({ origin: SATELLITE }).raw('GET', syncUrl(url)),
          await primaryBrowser.raw('GET', syncUrl(url, { __clerk_sync_primary: 'true' })),
          await h
            .browser({ origin: SATELLITE })
            .raw('GET', `${FAPI}/v1/client/link?${new URLSearchParams({ token: 'x', redirect_url: url })}`),
        ];
        for (const res of answers) {
          assert.equal(res.status, 422, `${label}: ${res.status} ${JSON.stringify(res.body)}`);
          assert.equal(res.body.errors[0].code, 'form_param_value_invalid', label);
          assert.equal(res.body.errors[0].meta.param_name, 'redirect_url', label);
          assert.equal(res.headers.location, undefined, label);
        }
      }
      const missing = await primaryBrowser.raw('GET', `${FAPI}/v1/client/sync`);
      assert.equal(missing.status, 422);
      assert.equal(missing.body.errors[0].code, 'form_param_nil');
      assert.equal(await h.count('satellite_links'), links);
    });

    it('a deleted satellite is unknown at once: its sync and link are refused', async () => {
      const tmp = await clerk.domains.add({
        name: 'gone.localhost:4200',
        is_satellite: true,
        proxy_url: 'http://gone.localhost:4200/__clerk',
      });
      const sat = h.browser({ origin: 'http://gone.localhost:4200' });
      const first = await sat.raw('GET', syncUrl('http://gone.localhost:4200/'));
      const second = await primaryBrowser.raw('GET', local(first.headers.location as string));
      const link = new URL(second.headers.location as string);
      // A browser synced before the deletion.
      const synced = h.browser({ origin: 'http://gone.localhost:4200' });
      const f2 = await synced.raw('GET', syncUrl('http://gone.localhost:4200/'));
      const s2 = await primaryBrowser.raw('GET', local(f2.headers.location as string));
      await synced.raw('GET', local(s2.headers.location as string));
      assert.equal((await synced.get('/client')).body.response.sessions.length, 1);
      await clerk.domains.delete(tmp.id);
      assert.equal(await h.count('client_domain_tokens', 'domain_id = $1', [tmp.id]), 0);
      assert.equal((await synced.get('/client')).body.response?.sessions?.length ?? 0, 0);
      const late = await sat.raw('GET', local(link.href));
      assert.equal(late.status, 422);
      assert.equal(late.setCookies.has('__client'), false);
    });
  });

  describe('origins: CORS, the origin guard, the handshake and redirect parameters', () => {
    it('answers a satellite’s exact origin with CORS (credentials), and no other origin', async () => {
      const pre = await h.app.inject({
        method: 'OPTIONS',
        url: `${FAPI}/v1/client`,
        headers: { origin: SATELLITE, 'access-control-request-method': 'POST' },
      });
      assert.equal(pre.statusCode, 204);
      assert.equal(pre.headers['access-control-allow-origin'], SATELLITE);
      assert.equal(pre.headers['access-control-allow-credentials'], 'true');
      for (const origin of [
        'http://x.sat.localhost:4000',
        'http://sat.localhost:4001',
        'https://evil.test',
        PUBLIC_URL,
      ]) {
        const res = await h.app.inject({ method: 'GET', url: `${FAPI}/v1/environment`, headers: { origin } });
        assert.equal(res.headers['access-control-allow-origin'], undefined, origin);
      }
      const get = await h.app.inject({
        method: 'GET',
        url: `${FAPI}/v1/environment`,
        headers: { origin: SATELLITE },
      });
      assert.equal(get.headers['access-control-allow-origin'], SATELLITE);
    });

    it('lets a satellite’s page change state (origin guard) but not a subdomain of it', async () => {
      const ok = await h
        .browser({ origin: SATELLITE })
        .post('/client/sign_ins', { identifier: uniqueEmail('x') });
      assert.notEqual(ok.body?.errors?.[0]?.code, 'origin_invalid', JSON.stringify(ok.body));
      const refused = await h
        .browser({ origin: 'http://x.sat.localhost:4000' })
        .post('/client/sign_ins', { identifier: uniqueEmail('x') });
      assert.equal(refused.body.errors[0].code, 'origin_invalid');
    });

    it('sends the handshake for a satellite’s page, exactly, through the primary; a sign-in may name it as redirect_url', async () => {
      const hs = await primaryBrowserHandshake(`${SATELLITE}/page`);
      assert.equal(hs.status, 307, JSON.stringify(hs.body));
      const toPrimary = new URL(hs.headers.location as string);
      assert.equal(`${toPrimary.origin}${toPrimary.pathname}`, `${PUBLIC_URL}${FAPI}/v1/client/handshake`);
      assert.equal(toPrimary.searchParams.get('__clerk_sync_primary'), 'true');
      const back = await h.browser().raw('GET', local(toPrimary.href));
      assert.equal(back.status, 307);
      const page = new URL(back.headers.location as string);
      assert.equal(page.origin, SATELLITE);
      assert.ok(page.searchParams.get('__clerk_handshake_nonce'));
      for (const url of ['http://x.sat.localhost:4000/page', 'http://sat.localhost:4001/page']) {
        const refused = await primaryBrowserHandshake(url);
        assert.equal(refused.status, 422, url);
        const refusedOnPrimary = await h.browser().get('/client/handshake', {
          redirect_url: url,
          format: 'nonce',
          __clerk_sync_primary: 'true',
        });
        assert.equal(refusedOnPrimary.status, 422, url);
      }
      const signIn = await h.browser({ origin: SATELLITE }).post('/client/sign_ins', {
        identifier: uniqueEmail('x'),
        redirect_url: `${SATELLITE}/after`,
      });
      assert.notEqual(
        signIn.body?.errors?.[0]?.meta?.param_name,
        'redirect_url',
        JSON.stringify(signIn.body),
      );
      const offSatellite = await h.browser({ origin: SATELLITE }).post('/client/sign_ins', {
        identifier: uniqueEmail('x'),
        redirect_url: 'http://x.sat.localhost:4000/after',
      });
      assert.equal(offSatellite.status, 422);
      assert.equal(offSatellite.body.errors[0].meta.param_name, 'redirect_url');
    });

    function primaryBrowserHandshake(redirectUrl: string) {
      return h.browser().get('/client/handshake', { redirect_url: redirectUrl, format: 'nonce' });
    }
  });
});

forEachBackend('Satellite domains with development keys (__domain, CORS to the primary)', (backend) => {
  let h: Harness;

  before(async () => {
    h = await Harness.start(backend, { config: { instanceKeys: 'development' } });
    await h.identity.deps.settings.set({
      ...h.identity.deps.settings.settings,
      domains: { satellites: [{ name: 'sat.localhost:4000' }] },
    });
  });
  after(() => h.close());

  it('a development satellite’s clerk-js calls the primary’s Frontend API from its origin, with __domain', async () => {
    const dev = await h.app.inject({
      method: 'POST',
      url: `${FAPI}/v1/dev_browser?__domain=sat.localhost:4000`,
      headers: { origin: SATELLITE },
    });
    assert.equal(dev.statusCode, 200, dev.body);
    assert.equal(dev.headers['access-control-allow-origin'], SATELLITE);
    const token = dev.json().id ?? dev.json().token;
    assert.ok(token);
    const client = await h.app.inject({
      method: 'GET',
      url: `${FAPI}/v1/client?__clerk_db_jwt=${token}&__domain=sat.localhost:4000&__clerk_api_version=2025-04-10`,
      headers: { origin: SATELLITE },
    });
    assert.equal(client.statusCode, 200, client.body);
    assert.equal(client.headers['access-control-allow-origin'], SATELLITE);
  });
});

describe('the domains settings slice', () => {
  it('takes satellites by name (lower-cased), a proxy URL and an optional id', () => {
    const parsed = parseInstanceSettings({
      domains: { satellites: [{ name: 'App.Example.com', proxyUrl: 'https://app.example.com/__clerk' }] },
    });
    assert.deepEqual(parsed.domains, {
      satellites: [{ name: 'app.example.com', proxyUrl: 'https://app.example.com/__clerk' }],
    });
    assert.match(derivedDomainId('app.example.com'), /^dmn_[0-9a-f]{27}$/);
    assert.equal(derivedDomainId('app.example.com'), derivedDomainId('app.example.com'));
  });

  it('refuses two satellites with one name, a scheme in the name, a proxy URL with a query, unknown fields', () => {
    for (const domains of [
      { satellites: [{ name: 'a.example' }, { name: 'A.example' }] },
      { satellites: [{ name: 'https://a.example' }] },
      { satellites: [{ name: 'a.example', proxyUrl: 'https://a.example/p?x=1' }] },
      { satellites: [{ name: 'a.example', proxyUrl: 'javascript:alert(1)' }] },
      { satellites: [{ name: 'a.example', extra: true }] },
      { satellites: [{ name: 'a.example', id: 'nope' }] },
      { primary: 'x.example' },
    ]) {
      assert.throws(() => parseInstanceSettings({ domains }), InstanceSettingsError, JSON.stringify(domains));
    }
  });
});
