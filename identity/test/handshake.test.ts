import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClerkClient, type ClerkClient } from '@clerk/backend';
import { decodeJwt } from 'jose';
import { sha256 } from '../src/crypto/secrets.ts';
import { cookieSuffixOf } from '../src/identity.ts';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { BAPI, FAPI, Harness, uniqueEmail, type Json } from './support/harness.ts';
import { OFF_ORIGIN_REDIRECTS } from './support/redirect-attacks.ts';
import { freePort, WireBrowser } from './support/wire-browser.ts';

/**
 * The handshake `@clerk/backend` 2.10.1's `authenticateRequest` relies on, driven by the real SDK: the
 * application's server (here `authenticateRequest` on a `Request`) meets a stale session cookie, sends
 * the browser to our `GET /v1/client/handshake`, the browser comes back with a handshake token or nonce,
 * and the server then sees the same user and session and sets fresh cookies.
 */

/** A page navigation as a browser sends it to the application, with the given cookies. */
function pageRequest(url: string, cookies: Record<string, string>): Request {
  return new Request(url, {
    headers: {
      accept: 'text/html',
      'sec-fetch-dest': 'document',
      cookie: Object.entries(cookies)
        .map(([k, v]) => `${k}=${v}`)
        .join('; '),
    },
  });
}

const cookieNamed = (directives: string[], name: string) => directives.find((d) => d.startsWith(`${name}=`));
const cookieValue = (directive: string | undefined) =>
  directive?.split(';')[0]!.split('=').slice(1).join('=');

forEachBackend('Handshake (GET /v1/client/handshake, clients.getHandshakePayload)', (backend) => {
  let h: Harness;
  let origin: string;
  let clerk: ClerkClient;
  let proxyUrl: string;
  let user: { userId: string; sessionId: string; jwt: string };
  let wire: WireBrowser;
  /** Another instance, its own database and key, for the nonces of one presented to the other. */
  let other: Harness;
  let otherClerk: ClerkClient;

  before(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    h = await Harness.start(backend, { config: { publicUrl: origin } });
    await h.app.listen({ host: '127.0.0.1', port });
    clerk = createClerkClient({
      apiUrl: `${origin}${BAPI}`,
      secretKey: h.identity.secretKey,
      publishableKey: h.identity.publishableKey,
    });
    proxyUrl = `${origin}${FAPI}`;
    const browser = h.browser({ origin });
    user = await signUp(h, browser, uniqueEmail('hs'));
    wire = WireBrowser.signedInAs(browser, origin);
    other = await Harness.start(backend, {
      config: {
        secretKey: 'sk_live_otherinstancekey000000000000000000000',
        allowedOrigins: ['https://app.example.test'],
      },
    });
    otherClerk = await backendApiClient(other);
  });
  after(async () => {
    await other.close();
    await h.close();
  });

  /** The browser's stale cookies on the application: a token older than `__client_uat`. */
  const staleCookies = () => ({
    __session: user.jwt,
    __client_uat: String((decodeJwt(user.jwt).iat ?? 0) + 5),
  });

  /** What the application's server answers to a page request (production keys, through our proxy URL). */
  const authenticate = (url: string, cookies: Record<string, string>) =>
    clerk.authenticateRequest(pageRequest(url, cookies), { proxyUrl });

  /** Follows the SDK's Location to our handshake with the wire browser, and answers where it sends back. */
  async function handshakeFrom(location: string, browser = wire): Promise<URL> {
    const res = await browser.request(location);
    assert.equal(res.status, 307, await res.text());
    assert.equal(res.headers.get('cache-control'), 'no-store');
    return new URL(res.headers.get('location')!);
  }

  /** A handshake location as `@clerk/backend` builds it, for a page of the application. */
  const handshakeUrl = (params: Record<string, string>) =>
    `${proxyUrl}/v1/client/handshake?${new URLSearchParams({
      redirect_url: `${origin}/dashboard`,
      __clerk_api_version: '2025-04-10',
      suffixed_cookies: 'false',
      __clerk_hs_reason: 'session-token-expired',
      ...params,
    })}`;

  describe('the round trip with the unmodified SDK', () => {
    it('a token older than __client_uat → handshake to our Frontend API → nonce → signed in, same user and session, fresh cookies', async () => {
      const page = `${origin}/dashboard?tab=billing`;
      const first = await authenticate(page, staleCookies());
      assert.equal(first.status, 'handshake', first.message ?? '');
      const location = new URL(first.headers.get('location')!);
      assert.equal(`${location.origin}${location.pathname}`, `${proxyUrl}/v1/client/handshake`);
      assert.equal(location.searchParams.get('redirect_url'), page);
      assert.equal(location.searchParams.get('format'), 'nonce');
      assert.equal(location.searchParams.get('__clerk_hs_reason'), 'session-token-iat-before-client-uat');

      const back = await handshakeFrom(location.href);
      assert.equal(`${back.origin}${back.pathname}`, `${origin}/dashboard`);
      assert.equal(back.searchParams.get('tab'), 'billing');
      const nonce = back.searchParams.get('__clerk_handshake_nonce');
      assert.ok(nonce);
      // Stored hashed, and its directives sealed: the table alone holds no session token.
      const rows = await h.db.query<Json>('SELECT * FROM handshake_nonces WHERE nonce_hash = $1', [
        sha256(nonce),
      ]);
      assert.equal(rows.length, 1);
      assert.ok(!JSON.stringify(rows).includes(nonce));
      assert.ok(!rows[0].sealed_directives.includes('__session'));

      const second = await authenticate(back.href, staleCookies());
      assert.equal(second.status, 'signed-in', second.message ?? '');
      const auth = second.toAuth();
      assert.equal(auth.userId, user.userId);
      assert.equal(auth.sessionId, user.sessionId);
      const setCookies = second.headers.getSetCookie();
      const session = cookieValue(cookieNamed(setCookies, '__session'));
      assert.ok(session);
      assert.ok((decodeJwt(session).iat ?? 0) >= (decodeJwt(user.jwt).iat ?? 0));
      assert.equal(decodeJwt(session).sid, user.sessionId);
      assert.equal(decodeJwt(session).azp, origin);
      const uat = Number(cookieValue(cookieNamed(setCookies, '__client_uat')));
      assert.ok(uat > 0 && uat <= (decodeJwt(session).iat ?? 0));
      // Single use: the nonce is gone.
      assert.equal(
        (await h.db.query('SELECT 1 FROM handshake_nonces WHERE nonce_hash = $1', [sha256(nonce)])).length,
        0,
      );
    });

    it('an expired session token takes the same way back (reason session-token-expired)', async () => {
      // A token minted five minutes ago, with the __client_uat of that time: only its expiry is wrong.
      h.clock.advance(-300);
      const minted = await wire.fapi('POST', `/client/sessions/${user.sessionId}/tokens`);
      h.clock.set(new Date());
      assert.equal(minted.status, 200, JSON.stringify(minted.body));
      const expired: string = minted.body.jwt;
      const cookies = { __session: expired, __client_uat: String(decodeJwt(expired).iat) };
      const first = await authenticate(`${origin}/reports`, cookies);
      assert.equal(first.status, 'handshake', first.message ?? '');
      const location = new URL(first.headers.get('location')!);
      assert.match(location.searchParams.get('__clerk_hs_reason') ?? '', /^session-token-expired/);
      const back = await handshakeFrom(location.href);
      const second = await authenticate(back.href, cookies);
      assert.equal(second.status, 'signed-in', second.message ?? '');
      assert.equal(second.toAuth().userId, user.userId);
      assert.equal(second.toAuth().sessionId, user.sessionId);
    });

    it('format=token: __clerk_handshake, a JWT signed by the instance key whose `handshake` claim the SDK verifies and applies', async () => {
      const back = await handshakeFrom(handshakeUrl({ format: 'token' }));
      const token = back.searchParams.get('__clerk_handshake');
      assert.ok(token);
      assert.equal(back.searchParams.get('__clerk_handshake_nonce'), null);
      const claims = decodeJwt(token) as { handshake: string[] };
      assert.ok(Array.isArray(claims.handshake));
      assert.deepEqual(
        claims.handshake.map((d) => d.split('=')[0]),
        ['__client_uat', '__session'],
      );
      const state = await authenticate(back.href, staleCookies());
      assert.equal(state.status, 'signed-in', state.message ?? '');
      assert.equal(state.toAuth().sessionId, user.sessionId);
      assert.deepEqual(state.headers.getSetCookie(), claims.handshake);
    });

    it('suffixed_cookies=true: the suffixed names as well, with the suffix @clerk/backend derives from the key', async () => {
      const suffix = cookieSuffixOf(h.identity.publishableKey);
      const back = await handshakeFrom(handshakeUrl({ format: 'token', suffixed_cookies: 'true' }));
      const { handshake } = decodeJwt(back.searchParams.get('__clerk_handshake')!) as { handshake: string[] };
      assert.deepEqual(
        handshake.map((d) => d.split('=')[0]),
        [`__client_uat_${suffix}`, '__client_uat', `__session_${suffix}`, '__session'],
      );
      // The SDK, reading suffixed cookies, sends the browser with suffixed_cookies=true and takes them.
      const cookies = {
        ...staleCookies(),
        [`__session_${suffix}`]: user.jwt,
        [`__client_uat_${suffix}`]: staleCookies().__client_uat,
      };
      const first = await authenticate(`${origin}/`, cookies);
      assert.equal(first.status, 'handshake');
      assert.equal(new URL(first.headers.get('location')!).searchParams.get('suffixed_cookies'), 'true');
      const state = await authenticate((await handshakeFrom(first.headers.get('location')!)).href, cookies);
      assert.equal(state.status, 'signed-in', state.message ?? '');
      assert.ok(cookieNamed(state.headers.getSetCookie(), `__session_${suffix}`));
    });

    it('cookie directives: Path=/, SameSite=Lax, a year; Secure only for an https application', async () => {
      const back = await handshakeFrom(handshakeUrl({ format: 'token' }));
      const { handshake } = decodeJwt(back.searchParams.get('__clerk_handshake')!) as { handshake: string[] };
      for (const d of handshake) assert.match(d, /; Path=\/; Max-Age=31536000; SameSite=Lax$/);
      const https = await other.browser().get('/client/handshake', {
        redirect_url: 'https://app.example.test/home',
        format: 'token',
      });
      assert.equal(https.status, 307);
      const signed = new URL(https.headers.location as string).searchParams.get('__clerk_handshake')!;
      for (const d of (decodeJwt(signed) as { handshake: string[] }).handshake) assert.match(d, /; Secure$/);
    });
  });

  describe('a signed-out browser', () => {
    it('a browser without a client gets clearing directives: the SDK answers signed out and clears the cookies', async () => {
      const stranger = new WireBrowser(origin);
      const first = await authenticate(`${origin}/dashboard`, staleCookies());
      assert.equal(first.status, 'handshake');
      const back = await handshakeFrom(first.headers.get('location')!, stranger);
      const state = await authenticate(back.href, staleCookies());
      assert.equal(state.status, 'signed-out');
      const setCookies = state.headers.getSetCookie();
      assert.equal(
        cookieNamed(setCookies, '__client_uat'),
        '__client_uat=0; Path=/; Max-Age=31536000; SameSite=Lax',
      );
      assert.equal(cookieNamed(setCookies, '__session'), '__session=; Path=/; Max-Age=0; SameSite=Lax');
    });

    it('a browser that signed out gets the same, and no token of its ended session', async () => {
      const browser = h.browser({ origin });
      const signedUp = await signUp(h, browser, uniqueEmail('hs-out'));
      const leaving = WireBrowser.signedInAs(browser, origin);
      assert.equal((await leaving.fapi('DELETE', '/client/sessions')).status, 200);
      const back = await handshakeFrom(handshakeUrl({ format: 'token' }), leaving);
      const { handshake } = decodeJwt(back.searchParams.get('__clerk_handshake')!) as { handshake: string[] };
      assert.deepEqual(handshake, [
        '__client_uat=0; Path=/; Max-Age=31536000; SameSite=Lax',
        '__session=; Path=/; Max-Age=0; SameSite=Lax',
      ]);
      const state = await authenticate(back.href, { __session: signedUp.jwt, __client_uat: '1' });
      assert.equal(state.status, 'signed-out');
    });
  });

  describe('abuse', () => {
    it('refuses a redirect_url off the instance’s origins, exactly (no other port, scheme, subdomain or userinfo), and issues nothing', async () => {
      const port = new URL(origin).port;
      const attacks: [string, string][] = [
        ['another origin', 'https://evil.test/'],
        ['the same host on another port', `http://127.0.0.1:${Number(port) + 1}/`],
        ['the same host over https', `https://127.0.0.1:${port}/`],
        ['a subdomain of the origin', `http://accounts.127.0.0.1:${port}/`],
        ['an accounts. host', 'https://accounts.evil.test/'],
        ['the origin as userinfo', `http://127.0.0.1:${port}@evil.test/`],
        ['userinfo on the origin', `http://user:pw@127.0.0.1:${port}/`],
        ['a relative path', '/dashboard'],
        ['protocol-relative', '//evil.test/'],
        ['javascript:', 'javascript:alert(1)'],
      ];
      const before = await h.db.query('SELECT nonce_hash FROM handshake_nonces');
      for (const [label, target] of attacks) {
        for (const format of ['nonce', 'token']) {
          const res = await wire.request(handshakeUrl({ redirect_url: target, format }));
          assert.equal(res.status, 422, label);
          assert.equal(res.headers.get('location'), null, label);
          const body = (await res.json()) as Json;
          assert.equal(body.errors[0].code, 'form_param_value_invalid', label);
          assert.equal(body.errors[0].meta.param_name, 'redirect_url', label);
        }
      }
      assert.deepEqual(await h.db.query('SELECT nonce_hash FROM handshake_nonces'), before);
    });

    it('refuses the product-origin open-redirect list on an instance served at http://localhost:3000', async () => {
      const browser = other.browser();
      for (const [label, target] of OFF_ORIGIN_REDIRECTS) {
        const res = await browser.get('/client/handshake', { redirect_url: target, format: 'nonce' });
        assert.equal(res.status, 422, label);
        assert.equal(res.body.errors[0].code, 'form_param_value_invalid', label);
      }
    });

    it('refuses a missing redirect_url and an unknown format', async () => {
      const missing = await wire.request(`${proxyUrl}/v1/client/handshake?format=nonce`);
      assert.equal(missing.status, 422);
      assert.equal(((await missing.json()) as Json).errors[0].code, 'form_param_nil');
      const format = await wire.request(handshakeUrl({ format: 'cookie' }));
      assert.equal(format.status, 422);
      assert.equal(((await format.json()) as Json).errors[0].meta.param_name, 'format');
    });

    it('a nonce is single-use: the second redemption finds nothing', async () => {
      const nonce = (await handshakeFrom(handshakeUrl({ format: 'nonce' }))).searchParams.get(
        '__clerk_handshake_nonce',
      )!;
      const payload = await clerk.clients.getHandshakePayload({ nonce });
      assert.deepEqual(
        payload.directives.map((d) => d.split('=')[0]),
        ['__client_uat', '__session'],
      );
      await rejectsWith(clerk.clients.getHandshakePayload({ nonce }), 404, 'resource_not_found');
    });

    it('a nonce is of its instance: another instance’s Backend API finds nothing, and it stays redeemable here', async () => {
      const nonce = (await handshakeFrom(handshakeUrl({ format: 'nonce' }))).searchParams.get(
        '__clerk_handshake_nonce',
      )!;
      await rejectsWith(otherClerk.clients.getHandshakePayload({ nonce }), 404, 'resource_not_found');
      // The other instance's own nonce is nothing here either.
      const theirs = await other.browser().get('/client/handshake', {
        redirect_url: 'http://localhost:3000/',
        format: 'nonce',
      });
      assert.equal(theirs.status, 307);
      const theirNonce = new URL(theirs.headers.location as string).searchParams.get(
        '__clerk_handshake_nonce',
      )!;
      await rejectsWith(clerk.clients.getHandshakePayload({ nonce: theirNonce }), 404, 'resource_not_found');
      assert.equal((await clerk.clients.getHandshakePayload({ nonce })).directives.length, 2);
    });

    it('a nonce expires after 60 seconds', async () => {
      const nonce = (await handshakeFrom(handshakeUrl({ format: 'nonce' }))).searchParams.get(
        '__clerk_handshake_nonce',
      )!;
      h.clock.advance(61);
      try {
        await rejectsWith(clerk.clients.getHandshakePayload({ nonce }), 404, 'resource_not_found');
      } finally {
        h.clock.set(new Date());
      }
      // Taken, not left behind.
      assert.equal(
        (await h.db.query('SELECT 1 FROM handshake_nonces WHERE nonce_hash = $1', [sha256(nonce)])).length,
        0,
      );
    });

    it('a forged or empty nonce, and no secret key', async () => {
      await rejectsWith(
        clerk.clients.getHandshakePayload({ nonce: 'not-a-nonce' }),
        404,
        'resource_not_found',
      );
      await rejectsWith(clerk.clients.getHandshakePayload({ nonce: '' }), 422, 'form_param_nil');
      const res = await fetch(`${origin}${BAPI}/v1/clients/handshake_payload?nonce=x`);
      assert.equal(res.status, 401);
    });
  });

  describe('organization_id: the SDK’s organizationSyncOptions', () => {
    const organizationSyncOptions = {
      organizationPatterns: ['/orgs/:id', '/orgs/:id/(.*)'],
      personalAccountPatterns: ['/me', '/me/(.*)'],
    };
    const withOrgSync = (url: string, cookies: Record<string, string>) =>
      clerk.authenticateRequest(pageRequest(url, cookies), { proxyUrl, organizationSyncOptions });
    const cookiesOf = (setCookies: string[]) => ({
      __session: cookieValue(cookieNamed(setCookies, '__session'))!,
      __client_uat: cookieValue(cookieNamed(setCookies, '__client_uat'))!,
    });

    /** The page's round trip: its handshake (asserted to carry `organization_id`), then the page again. */
    async function visit(path: string, cookies: Record<string, string>, organizationId: string) {
      const first = await withOrgSync(`${origin}${path}`, cookies);
      assert.equal(first.status, 'handshake', first.message ?? '');
      const location = new URL(first.headers.get('location')!);
      assert.equal(location.searchParams.get('organization_id'), organizationId);
      assert.equal(location.searchParams.get('__clerk_hs_reason'), 'active-organization-mismatch');
      const second = await withOrgSync((await handshakeFrom(location.href)).href, cookies);
      assert.equal(second.status, 'signed-in', second.message ?? '');
      return { auth: second.toAuth(), cookies: cookiesOf(second.headers.getSetCookie()) };
    }

    it('a page naming one of the user’s organisations (id or slug) makes it the session’s, the personal account too', async () => {
      const alpha = await clerk.organizations.createOrganization({
        name: 'Alpha',
        slug: 'alpha-handshake',
        createdBy: user.userId,
      });
      const beta = await clerk.organizations.createOrganization({
        name: 'Beta',
        slug: 'beta-handshake',
        createdBy: user.userId,
      });
      // Cookies the SDK trusts: a first handshake's.
      const fresh = await authenticate(
        (await handshakeFrom((await authenticate(`${origin}/`, staleCookies())).headers.get('location')!))
          .href,
        staleCookies(),
      );
      let cookies = cookiesOf(fresh.headers.getSetCookie());

      let seen = await visit(`/orgs/${alpha.id}/settings`, cookies, alpha.id);
      assert.equal(seen.auth.orgId, alpha.id);
      assert.equal(seen.auth.sessionId, user.sessionId);
      cookies = seen.cookies;
      // Settled: the same page needs no handshake now.
      const again = await withOrgSync(`${origin}/orgs/${alpha.id}/settings`, cookies);
      assert.equal(again.status, 'signed-in', again.message ?? '');
      assert.equal(again.toAuth().orgId, alpha.id);

      seen = await visit(`/orgs/${beta.slug}`, cookies, beta.slug!);
      assert.equal(seen.auth.orgId, beta.id);
      cookies = seen.cookies;
      // The session itself changed, as setActive would: the next token of any tab carries it.
      const session = await h.db.query<Json>(
        'SELECT last_active_organization_id FROM sessions WHERE id = $1',
        [user.sessionId],
      );
      assert.equal(session[0].last_active_organization_id, beta.id);

      seen = await visit('/me', cookies, '');
      assert.equal(seen.auth.orgId, undefined);
    });

    it('an organisation the user is not a member of, or none at all, changes nothing', async () => {
      const stranger = await signUp(h, h.browser({ origin }), uniqueEmail('hs-stranger'));
      const theirs = await clerk.organizations.createOrganization({
        name: 'Theirs',
        slug: 'theirs-handshake',
        createdBy: stranger.userId,
      });
      const fresh = await authenticate(
        (await handshakeFrom((await authenticate(`${origin}/`, staleCookies())).headers.get('location')!))
          .href,
        staleCookies(),
      );
      const cookies = cookiesOf(fresh.headers.getSetCookie());
      const previous = fresh.toAuth()!.orgId ?? null;
      for (const named of [theirs.id, theirs.slug!, 'org_doesnotexist000000000000', 'no-such-slug']) {
        const seen = await visit(`/orgs/${named}`, cookies, named);
        assert.equal(seen.auth.orgId ?? null, previous, named);
      }
      const session = await h.db.query<Json>(
        'SELECT last_active_organization_id FROM sessions WHERE id = $1',
        [user.sessionId],
      );
      assert.equal(session[0].last_active_organization_id, previous);
    });
  });
});

forEachBackend('Handshake with development keys (__clerk_db_jwt)', (backend) => {
  let h: Harness;
  let origin: string;
  let clerk: ClerkClient;

  before(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    h = await Harness.start(backend, { config: { publicUrl: origin, instanceKeys: 'development' } });
    await h.app.listen({ host: '127.0.0.1', port });
    clerk = createClerkClient({
      apiUrl: `${origin}${BAPI}`,
      secretKey: h.identity.secretKey,
      publishableKey: h.identity.publishableKey,
    });
  });
  after(() => h.close());

  it('the dev-browser token in the handshake URL identifies the browser, and comes back as a directive', async () => {
    // A development browser: its token from /dev_browser, signed up with it as clerk-js does.
    const browser = h.browser({ origin });
    const dev = await browser.post('/dev_browser');
    assert.equal(dev.status, 200, JSON.stringify(dev.body));
    let token: string = dev.body.id;
    const signUpForm = { email_address: uniqueEmail('hs-dev'), password: 'a-Long-passw0rd-for-tests' };
    const created = await browser.post('/client/sign_ups', signUpForm, { __clerk_db_jwt: token });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    token = (created.headers['clerk-db-jwt'] as string | undefined) ?? token;
    const signUpId: string = created.body.response.id;
    // Development: the code is in the outbox; the flows helper does this for cookies, by hand here.
    await browser.post(
      `/client/sign_ups/${signUpId}/prepare_verification`,
      { strategy: 'email_code' },
      { __clerk_db_jwt: token },
    );
    const mail = await h.mail(signUpForm.email_address);
    const code = /\b(\d{6})\b/.exec(mail.at(-1)!.text)![1]!;
    const verified = await browser.post(
      `/client/sign_ups/${signUpId}/attempt_verification`,
      { strategy: 'email_code', code },
      { __clerk_db_jwt: token },
    );
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    token = (verified.headers['clerk-db-jwt'] as string | undefined) ?? token;
    const sessionId: string = verified.body.response.created_session_id;
    const jwt: string = verified.body.client.sessions[0].last_active_token.jwt;

    const cookies = {
      __clerk_db_jwt: token,
      __session: jwt,
      __client_uat: String((decodeJwt(jwt).iat ?? 0) + 5),
    };
    const first = await clerk.authenticateRequest(pageRequest(`${origin}/app`, cookies), {
      proxyUrl: `${origin}${FAPI}`,
    });
    assert.equal(first.status, 'handshake', first.message ?? '');
    const location = new URL(first.headers.get('location')!);
    assert.equal(location.searchParams.get('__clerk_db_jwt'), token);
    // A browser with no cookie on our origin: only the URL's token says who it is.
    const res = await new WireBrowser(origin).request(location.href);
    assert.equal(res.status, 307);
    const back = new URL(res.headers.get('location')!);
    const second = await clerk.authenticateRequest(pageRequest(back.href, cookies), {
      proxyUrl: `${origin}${FAPI}`,
    });
    assert.equal(second.status, 'signed-in', second.message ?? '');
    assert.equal(second.toAuth().sessionId, sessionId);
    const setCookies = second.headers.getSetCookie();
    assert.equal(cookieValue(cookieNamed(setCookies, '__clerk_db_jwt')), token);
    // Development: the SDK sends the browser on to the page without the handshake parameters. It removes
    // `__clerk_handshake` but would keep a `__clerk_handshake_nonce` (and redeem it again, for ever): with
    // development keys the provider answers with the token, whatever format is asked.
    assert.equal(location.searchParams.get('format'), 'nonce');
    assert.ok(back.searchParams.get('__clerk_handshake'));
    assert.equal(back.searchParams.get('__clerk_handshake_nonce'), null);
    const onward = new URL(second.headers.get('location')!);
    assert.equal(onward.searchParams.get('__clerk_handshake'), null);
    assert.equal(onward.searchParams.get('__clerk_handshake_nonce'), null);
  });
});
