import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { BAPI, FAPI, Harness, type Browser, type FapiResponse } from './support/harness.ts';
import { selfSignedCertificate, TestIdp, type IdpUser, type TestKeyPair } from './support/saml-idp.ts';
import { enrolTotp, totpCode } from './support/second-factors.ts';
import { backendOrganization, clientOf, signUpBeforeConnections } from './support/social-flows.ts';

/**
 * Enterprise SSO by SAML 2.0 against a real IdP in the test (samlify, signing with a key and a
 * self-signed certificate made here), driving the real endpoints: the identifier on <SignIn/>, the
 * AuthnRequest, the ACS (cross-site POST, no cookies) and the handoff back on our origin. A new person
 * is provisioned and joins the connection's organisation; an existing one signs in (a second factor
 * still asked); every forged, altered, expired, misdirected or replayed response is refused with
 * nothing created.
 */

const CONNECTION = 'samlc_acme';
const OTHER_CONNECTION = 'samlc_globex';
const DOMAIN = 'acme.test';
const IDP_ENTITY = 'https://idp.acme.test/saml';
const IDP_SSO = 'https://idp.acme.test/sso';
const IDP_ORIGIN = 'https://idp.acme.test';

let n = 0;
const acmeEmail = (prefix = 'person') => `${prefix}-${Date.now().toString(36)}-${++n}@${DOMAIN}`;

forEachBackend('enterprise SSO with SAML 2.0', (backend) => {
  let h: Harness;
  let keys: TestKeyPair;
  let otherKeys: TestKeyPair;
  let idp: TestIdp;
  let organizationId: string;
  const app = (path: string) => `${h.config.publicUrl}${path}`;

  before(async () => {
    keys = selfSignedCertificate('Acme test IdP');
    otherKeys = selfSignedCertificate('Globex test IdP');
    idp = new TestIdp(IDP_ENTITY, IDP_SSO, keys);
    h = await Harness.start(backend);
    organizationId = await backendOrganization(h, 'Acme');
    await h.identity.settings.set({
      ...h.identity.settings.settings,
      enterpriseConnections: {
        [CONNECTION]: {
          name: 'Acme Workforce',
          protocol: 'saml',
          domains: [DOMAIN],
          organization: organizationId,
          defaultRole: 'org:member',
          idpEntityId: IDP_ENTITY,
          idpSsoUrl: IDP_SSO,
          idpCertificate: keys.certificate,
        },
        [OTHER_CONNECTION]: {
          name: 'Globex',
          protocol: 'saml',
          domains: ['globex.test'],
          idpEntityId: 'https://idp.globex.test/saml',
          idpSsoUrl: 'https://idp.globex.test/sso',
          idpCertificate: otherKeys.certificate,
        },
      },
    });
  });
  after(() => h.close());

  let metadataXml: string;
  beforeEach(async () => {
    metadataXml ??= (await h.app.inject({ method: 'GET', url: `${FAPI}/v1/saml/metadata/${CONNECTION}.xml` }))
      .body;
  });

  /** The identifier on <SignIn/>, then clerk-js's prepare_first_factor: the IdP's URL. */
  async function startSso(browser: Browser, email: string): Promise<{ signInId: string; redirect: string }> {
    const created = await browser.post('/client/sign_ins', { identifier: email });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.response.status, 'needs_first_factor');
    assert.deepEqual(created.body.response.supported_first_factors, [{ strategy: 'enterprise_sso' }]);
    const signInId: string = created.body.response.id;
    const prepared = await browser.post(`/client/sign_ins/${signInId}/prepare_first_factor`, {
      strategy: 'enterprise_sso',
      redirect_url: app('/sign-in/sso-callback'),
      action_complete_redirect_url: app('/dashboard'),
    });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    const verification = prepared.body.response.first_factor_verification;
    assert.equal(verification.status, 'unverified');
    assert.equal(verification.strategy, 'enterprise_sso');
    const redirect: string = verification.external_verification_redirect_url;
    assert.ok(redirect.startsWith(`${IDP_SSO}?SAMLRequest=`), redirect);
    return { signInId, redirect };
  }

  /** What the IdP posts back for the AuthnRequest in `redirect`. */
  async function idpAnswer(
    redirect: string,
    user: IdpUser,
    opts: { tags?: Record<string, string>; by?: TestIdp; signAssertions?: boolean; unsigned?: boolean } = {},
  ): Promise<string> {
    const by = opts.by ?? idp;
    const sp = by.sp(metadataXml, { signAssertions: opts.signAssertions });
    const { requestId } = await by.readRequest(sp, redirect);
    if (opts.unsigned) return by.unsignedResponse(sp, requestId, user);
    return by.respond(sp, requestId, user, opts.tags);
  }

  /** The IdP's page posts the response to the ACS: cross-site, so the browser sends none of our cookies. */
  function postAcs(samlResponse: string, connection = CONNECTION): Promise<FapiResponse> {
    return h
      .browser({ origin: IDP_ORIGIN })
      .raw('POST', `${FAPI}/v1/saml/acs/${connection}`, { SAMLResponse: samlResponse, RelayState: '' });
  }

  /** The ACS's 303, followed by the browser (a top-level GET to our origin, with its cookies). */
  function follow(browser: Browser, location: string): Promise<FapiResponse> {
    const { pathname, search } = new URL(location);
    return browser.raw('GET', `${pathname}${search}`);
  }

  /** The whole round trip: the ACS's answer, and where the browser lands after the handoff. */
  async function roundTrip(browser: Browser, samlResponse: string): Promise<FapiResponse> {
    const acs = await postAcs(samlResponse);
    assert.equal(acs.status, 303, JSON.stringify(acs.body));
    assert.ok(
      acs.headers.location!.startsWith(`${h.identity.deps.fapiBase}/v1/saml/acs/${CONNECTION}?handoff=`),
    );
    assert.equal(acs.setCookies.size, 0, 'the ACS sets no cookie');
    return follow(browser, String(acs.headers.location));
  }

  const client = clientOf;

  /** What an attack must leave alone: the users, sessions and accounts. */
  async function counts() {
    return {
      users: await h.count('users'),
      sessions: await h.count('sessions'),
      accounts: await h.count('enterprise_accounts'),
      memberships: await h.count('organization_memberships'),
    };
  }

  /** An attack's response is refused: nothing created, and the browser's sign-in fails with a clear error. */
  async function assertRefused(browser: Browser, samlResponse: string) {
    const before = await counts();
    const acs = await postAcs(samlResponse);
    assert.equal(acs.status, 303);
    if (String(acs.headers.location).includes('handoff=')) {
      const landed = await follow(browser, String(acs.headers.location));
      assert.equal(landed.status, 303);
      assert.equal(landed.headers.location, app('/sign-in/sso-callback'));
      const signIn = (await client(browser)).sign_in;
      assert.equal(signIn.first_factor_verification.status, 'failed');
      assert.equal(signIn.first_factor_verification.error.code, 'external_account_verification_failed');
    } else {
      assert.equal(acs.headers.location, app('/sign-in'));
    }
    assert.deepEqual(await counts(), before, 'nothing was created');
    assert.equal((await client(browser)).sessions.length, 0, 'no session');
  }

  it('advertises enterprise SSO and SAML in the environment, and publishes the SP metadata', async () => {
    const env = (await h.browser().get('/environment')).body;
    assert.deepEqual(env.user_settings.enterprise_sso, { enabled: true });
    assert.deepEqual(env.user_settings.saml, { enabled: true });
    const res = await h.app.inject({ method: 'GET', url: `${FAPI}/v1/saml/metadata/${CONNECTION}.xml` });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/samlmetadata\+xml/);
    const entity = `${h.identity.deps.fapiBase}/v1/saml/metadata/${CONNECTION}.xml`;
    assert.ok(res.body.includes(`entityID="${entity}"`), res.body);
    assert.ok(
      res.body.includes(`Location="${h.identity.deps.fapiBase}/v1/saml/acs/${CONNECTION}"`),
      res.body,
    );
    assert.match(res.body, /WantAssertionsSigned="true"/);
    const unknown = await h.app.inject({ method: 'GET', url: `${FAPI}/v1/saml/metadata/samlc_nope.xml` });
    assert.equal(unknown.statusCode, 404);
  });

  it('a new person is provisioned at the first sign-in and joins the organisation with its default role', async () => {
    const browser = h.browser();
    const email = acmeEmail('new');
    const { redirect } = await startSso(browser, email);
    const landed = await roundTrip(
      browser,
      await idpAnswer(redirect, { email, firstName: 'Grace', lastName: 'Hopper' }),
    );
    assert.equal(landed.status, 303);
    assert.equal(landed.headers.location, app('/dashboard'));
    const c = await client(browser);
    assert.equal(c.sessions.length, 1);
    const user = c.sessions[0].user;
    assert.equal(user.email_addresses[0].email_address, email);
    assert.equal(user.email_addresses[0].verification.status, 'verified');
    assert.equal(user.first_name, 'Grace');
    assert.equal(user.last_name, 'Hopper');
    assert.equal(user.password_enabled, false);
    assert.equal(user.enterprise_accounts.length, 1);
    const account = user.enterprise_accounts[0];
    assert.equal(account.object, 'enterprise_account');
    assert.equal(account.protocol, 'saml');
    assert.equal(account.provider, 'saml_custom');
    assert.equal(account.email_address, email);
    assert.equal(account.provider_user_id, email);
    assert.equal(account.active, true);
    assert.equal(account.enterprise_connection.id, CONNECTION);
    assert.equal(account.enterprise_connection.name, 'Acme Workforce');
    assert.equal(account.enterprise_connection.domain, DOMAIN);
    assert.equal(user.saml_accounts.length, 1);
    assert.equal(user.saml_accounts[0].object, 'saml_account');
    assert.deepEqual(
      user.organization_memberships.map((m: { organization: { id: string }; role: string }) => [
        m.organization.id,
        m.role,
      ]),
      [[organizationId, 'org:member']],
    );

    // Signed out, the same IdP user signs straight in again: same account, no second membership.
    const again = h.browser();
    const second = await startSso(again, email);
    const landedAgain = await roundTrip(again, await idpAnswer(second.redirect, { email }));
    assert.equal(landedAgain.headers.location, app('/dashboard'));
    assert.equal((await client(again)).sessions[0].user.id, user.id);
    assert.equal(await h.count('users', 'id = $1', [user.id]), 1);
    assert.equal(await h.count('enterprise_accounts', 'user_id = $1', [user.id]), 1);
    assert.equal(await h.count('organization_memberships', 'user_id = $1', [user.id]), 1);
  });

  it('an existing user with the address verified is linked and signed in; the password is refused for the domain', async () => {
    const email = acmeEmail('existing');
    const owner = await signUpBeforeConnections(h, h.browser(), email);
    const browser = h.browser();
    // The domain's addresses sign in at the IdP only: a password is refused (clerk-js then retries with
    // the identifier alone).
    const withPassword = await browser.post('/client/sign_ins', {
      identifier: email,
      password: 'correct horse battery',
    });
    assert.equal(withPassword.status, 422);
    assert.equal(withPassword.body.errors[0].code, 'strategy_for_user_invalid');
    const { signInId, redirect } = await startSso(browser, email);
    const attempt = await browser.post(`/client/sign_ins/${signInId}/attempt_first_factor`, {
      strategy: 'password',
      password: 'correct horse battery',
    });
    assert.equal(attempt.status, 422);
    assert.equal(attempt.body.errors[0].code, 'strategy_for_user_invalid');
    const landed = await roundTrip(browser, await idpAnswer(redirect, { email }));
    assert.equal(landed.headers.location, app('/dashboard'));
    const c = await client(browser);
    assert.equal(c.sessions[0].user.id, owner.userId);
    assert.equal(c.sessions[0].user.enterprise_accounts.length, 1);
  });

  it('a user with a second factor still has to give it after the IdP', async () => {
    const email = acmeEmail('mfa');
    const ownerBrowser = h.browser();
    const owner = await signUpBeforeConnections(h, ownerBrowser, email);
    const { secret } = await enrolTotp(h, ownerBrowser);
    const browser = h.browser();
    const { signInId, redirect } = await startSso(browser, email);
    const landed = await roundTrip(browser, await idpAnswer(redirect, { email }));
    // Not complete: to the SSO callback, where clerk-js goes on to the second factor.
    assert.equal(landed.headers.location, app('/sign-in/sso-callback'));
    const signIn = (await client(browser)).sign_in;
    assert.equal(signIn.status, 'needs_second_factor');
    assert.equal(signIn.first_factor_verification.status, 'verified');
    assert.equal(signIn.first_factor_verification.strategy, 'enterprise_sso');
    assert.equal(await h.count('sessions', 'user_id = $1', [owner.userId]), 1, 'no session yet');
    const second = await browser.post(`/client/sign_ins/${signInId}/attempt_second_factor`, {
      strategy: 'totp',
      code: totpCode(secret, h.clock.now, 1),
    });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(second.body.response.status, 'complete');
  });

  it('a connection that may not sign people up refuses a newcomer; a disabled one is not offered', async (t) => {
    const saved = h.identity.settings.settings;
    t.after(() => h.identity.settings.set(saved));
    const connections = saved.enterpriseConnections!;
    await h.identity.settings.set({
      ...saved,
      enterpriseConnections: {
        ...connections,
        [CONNECTION]: { ...connections[CONNECTION]!, signUpAllowed: false },
      },
    });
    const browser = h.browser();
    const email = acmeEmail('refused');
    const { redirect } = await startSso(browser, email);
    const before = await counts();
    const landed = await roundTrip(browser, await idpAnswer(redirect, { email }));
    assert.equal(landed.headers.location, app('/sign-in/sso-callback'));
    assert.equal(
      (await client(browser)).sign_in.first_factor_verification.error.code,
      'not_allowed_to_sign_up',
    );
    assert.deepEqual(await counts(), before);

    // Disabled: the address signs in as any other (no enterprise factor), and the environment says so once
    // no other SAML connection is on.
    await h.identity.settings.set({
      ...saved,
      enterpriseConnections: {
        [CONNECTION]: { ...connections[CONNECTION]!, enabled: false },
        [OTHER_CONNECTION]: { ...connections[OTHER_CONNECTION]!, enabled: false },
      },
    });
    const env = (await h.browser().get('/environment')).body;
    assert.deepEqual(env.user_settings.enterprise_sso, { enabled: false });
    assert.deepEqual(env.user_settings.saml, { enabled: false });
    const plain = await h.browser().post('/client/sign_ins', { identifier: acmeEmail('plain') });
    assert.equal(plain.status, 422);
    assert.equal(plain.body.errors[0].code, 'form_identifier_not_found');
    assert.equal(
      (await h.app.inject({ method: 'GET', url: `${FAPI}/v1/saml/metadata/${CONNECTION}.xml` })).statusCode,
      404,
    );
  });

  it('refuses an unsigned response, and a signed response whose assertion is unsigned', async () => {
    for (const opts of [{ unsigned: true }, { signAssertions: false }]) {
      const browser = h.browser();
      const email = acmeEmail('unsigned');
      const { redirect } = await startSso(browser, email);
      await assertRefused(browser, await idpAnswer(redirect, { email }, opts));
      assert.equal(await h.count('email_addresses', 'email_address = $1', [email]), 0);
    }
  });

  it('refuses signature wrapping: a second, unsigned assertion beside or around the signed one', async () => {
    const victim = acmeEmail('victim');
    await signUpBeforeConnections(h, h.browser(), victim);
    const wraps: ((xml: string, evil: string) => string)[] = [
      // Beside: the forged assertion first, the signed one after it.
      (xml, evil) => xml.replace('<saml:Assertion', `${evil}<saml:Assertion`),
      // Around: the signed assertion hidden in an Extensions element, the forged one in its place.
      (xml, evil) => {
        const start = xml.indexOf('<saml:Assertion');
        const end = xml.indexOf('</saml:Assertion>') + '</saml:Assertion>'.length;
        const signed = xml.slice(start, end);
        return `${xml.slice(0, start)}<samlp:Extensions>${signed}</samlp:Extensions>${evil}${xml.slice(end)}`;
      },
    ];
    for (const wrap of wraps) {
      const browser = h.browser();
      const email = acmeEmail('attacker');
      const { redirect } = await startSso(browser, email);
      const xml = Buffer.from(await idpAnswer(redirect, { email }), 'base64').toString('utf8');
      const signed = xml.slice(xml.indexOf('<saml:Assertion'), xml.indexOf('</saml:Assertion>') + 17);
      // The forged one: the signed assertion's content with the victim as subject, its signature dropped.
      const evil = signed
        .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')
        .replaceAll(email, victim)
        .replace(/ID="[^"]+"/, 'ID="_forged"');
      await assertRefused(browser, Buffer.from(wrap(xml, evil)).toString('base64'));
    }
    assert.equal(await h.count('enterprise_accounts', 'email_address = $1', [victim]), 0);
  });

  it('refuses an expired assertion, one for another audience, another recipient or another issuer', async () => {
    const past = new Date(Date.now() - 10 * 60_000).toISOString();
    const attacks: Record<string, string>[] = [
      { SubjectConfirmationDataNotOnOrAfter: past, ConditionsNotOnOrAfter: past },
      { ConditionsNotOnOrAfter: past },
      { Audience: 'https://another-sp.example/saml' },
      { SubjectRecipient: 'https://another-sp.example/acs' },
      { Destination: 'https://another-sp.example/acs' },
      { ConditionsNotBefore: new Date(Date.now() + 10 * 60_000).toISOString() },
    ];
    for (const tags of attacks) {
      const browser = h.browser();
      const email = acmeEmail('expired');
      const { redirect } = await startSso(browser, email);
      await assertRefused(browser, await idpAnswer(redirect, { email }, { tags }));
    }
    // Another issuer, signing with the right key (the certificate is not the only check).
    const browser = h.browser();
    const email = acmeEmail('issuer');
    const { redirect } = await startSso(browser, email);
    const impostor = new TestIdp('https://impostor.example/saml', IDP_SSO, keys);
    await assertRefused(browser, await idpAnswer(redirect, { email }, { by: impostor }));
  });

  it('refuses a response to another request, an unsolicited one, and one signed with another connection’s key', async () => {
    // InResponseTo names a request we never made: unsolicited, nobody's sign-in moves.
    const browser = h.browser();
    const email = acmeEmail('unsolicited');
    const { redirect } = await startSso(browser, email);
    await assertRefused(
      browser,
      await idpAnswer(redirect, { email }, { tags: { InResponseTo: '_not-ours' } }),
    );
    // The subject's InResponseTo (signed) differs from the response's (ours): refused, the request spent.
    const other = h.browser();
    const { redirect: r2 } = await startSso(other, email);
    await assertRefused(other, await idpAnswer(r2, { email }, { tags: { SubjectInResponseTo: '_another' } }));
    // Another connection's certificate (Globex's IdP signing for Acme's domain).
    const third = h.browser();
    const { redirect: r3 } = await startSso(third, email);
    const globex = new TestIdp(IDP_ENTITY, IDP_SSO, otherKeys);
    await assertRefused(third, await idpAnswer(r3, { email }, { by: globex }));
    // A response posted to another connection's ACS.
    const fourth = h.browser();
    const { redirect: r4 } = await startSso(fourth, email);
    const before = await counts();
    const wrongAcs = await postAcs(await idpAnswer(r4, { email }), OTHER_CONNECTION);
    assert.equal(wrongAcs.headers.location, app('/sign-in'));
    // …and to a connection the instance does not have.
    const unknown = await postAcs(await idpAnswer(r4, { email }), 'samlc_unknown');
    assert.equal(unknown.status, 404);
    assert.deepEqual(await counts(), before);
  });

  it('refuses an address outside the connection’s domains', async () => {
    const browser = h.browser();
    const email = acmeEmail('outside');
    const { redirect } = await startSso(browser, email);
    const before = await counts();
    const landed = await roundTrip(browser, await idpAnswer(redirect, { email: `ceo@globex.test` }));
    assert.equal(landed.headers.location, app('/sign-in/sso-callback'));
    const signIn = (await client(browser)).sign_in;
    assert.equal(signIn.first_factor_verification.error.code, 'enterprise_sso_email_address_domain_mismatch');
    assert.deepEqual(await counts(), before);
  });

  it('refuses a replayed response, on this instance and on another one on the same database', async () => {
    const browser = h.browser();
    const email = acmeEmail('replay');
    const { redirect } = await startSso(browser, email);
    const response = await idpAnswer(redirect, { email });
    await roundTrip(browser, response);
    assert.equal((await client(browser)).sessions.length, 1);
    // The assertion's id is on record (per connection), for every instance on the database to refuse.
    const assertionId = /<saml:Assertion[^>]* ID="([^"]+)"/.exec(
      Buffer.from(response, 'base64').toString(),
    )![1];
    assert.equal(
      await h.count('saml_assertions', 'connection_id = $1 AND assertion_id = $2', [CONNECTION, assertionId]),
      1,
    );
    const before = await counts();
    // The same response again, from a browser that has started its own sign-in meanwhile.
    const attacker = h.browser();
    await startSso(attacker, email);
    const replayed = await postAcs(response);
    assert.equal(replayed.headers.location, app('/sign-in'));
    const twin = await h.twin();
    try {
      const onTwin = await twin
        .browser({ origin: IDP_ORIGIN })
        .raw('POST', `${FAPI}/v1/saml/acs/${CONNECTION}`, { SAMLResponse: response });
      assert.equal(onTwin.status, 303);
      assert.equal(onTwin.headers.location, app('/sign-in'));
    } finally {
      await twin.close();
    }
    assert.deepEqual(await counts(), before);
    assert.equal((await client(attacker)).sessions.length, 0);
  });

  it('a handoff is single use and works only for the browser that started the sign-in', async () => {
    const browser = h.browser();
    const email = acmeEmail('handoff');
    const { redirect } = await startSso(browser, email);
    const acs = await postAcs(await idpAnswer(redirect, { email }));
    const location = String(acs.headers.location);
    const before = await counts();
    // Another browser (a stolen link): nothing happens to the sign-in it names.
    const thief = h.browser();
    const stolen = await follow(thief, location);
    assert.equal(stolen.headers.location, app('/sign-in'));
    assert.deepEqual(await counts(), before);
    // The handoff was spent by that attempt: the owner's own use now fails too, with a clear error.
    const late = await follow(browser, location);
    assert.equal(late.headers.location, app('/sign-in'));
    const signIn = (await client(browser)).sign_in;
    assert.equal(signIn.first_factor_verification.error.code, 'oauth_callback_invalid');
    assert.deepEqual(await counts(), before);
  });

  it('refuses redirect URLs off the allowed origins, and other strategies for the domain', async () => {
    const browser = h.browser();
    const created = await browser.post('/client/sign_ins', { identifier: acmeEmail('redirect') });
    const id = created.body.response.id;
    const evil = await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
      strategy: 'enterprise_sso',
      redirect_url: 'https://evil.example/sso-callback',
      action_complete_redirect_url: app('/dashboard'),
    });
    assert.equal(evil.status, 422);
    assert.equal(evil.body.errors[0].param_name ?? evil.body.errors[0].meta.param_name, 'redirect_url');
    const code = await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
      strategy: 'email_code',
    });
    assert.equal(code.status, 422);
    assert.equal(code.body.errors[0].code, 'strategy_for_user_invalid');
    // Another browser cannot prepare this browser's sign-in.
    const other = await h.browser().post(`/client/sign_ins/${id}/prepare_first_factor`, {
      strategy: 'enterprise_sso',
      redirect_url: app('/sign-in/sso-callback'),
    });
    assert.equal(other.status, 404);
    // enterprise_sso for an address of no connection's domain is refused.
    const plain = await h.browser().post('/client/sign_ins', {
      identifier: 'someone@example.com',
      strategy: 'enterprise_sso',
      redirect_url: app('/sign-in/sso-callback'),
    });
    assert.equal(plain.status, 422);
    assert.equal(plain.body.errors[0].code, 'strategy_for_user_invalid');
  });

  it('creates the sign-in and the redirect at once with strategy=enterprise_sso (custom flows)', async () => {
    const browser = h.browser();
    const email = acmeEmail('custom');
    const created = await browser.post('/client/sign_ins', {
      identifier: email,
      strategy: 'enterprise_sso',
      redirect_url: app('/sign-in/sso-callback'),
      action_complete_redirect_url: app('/dashboard'),
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const redirect = created.body.response.first_factor_verification.external_verification_redirect_url;
    assert.ok(redirect.startsWith(IDP_SSO));
    const landed = await roundTrip(browser, await idpAnswer(redirect, { email }));
    assert.equal(landed.headers.location, app('/dashboard'));
  });

  it('<SignUp/> with an address at the domain answers missing_fields enterprise_sso, keeps no password, and the IdP completes it', async () => {
    const browser = h.browser();
    const email = acmeEmail('signup');
    const before = await counts();
    const created = await browser.post('/client/sign_ups', {
      email_address: email,
      password: 'a-long-enough-passphrase-42',
      first_name: 'Mary',
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const signUp = created.body.response;
    assert.equal(signUp.status, 'missing_requirements');
    assert.deepEqual(signUp.missing_fields, ['enterprise_sso']);
    assert.equal(signUp.has_password, false, 'the IdP is the factor: no password is kept');
    // No code can finish it instead of the IdP.
    const code = await browser.post(`/client/sign_ups/${signUp.id}/prepare_verification`, {
      strategy: 'email_code',
    });
    assert.equal(code.status, 422, JSON.stringify(code.body));
    assert.equal(code.body.errors[0].meta.param_name, 'strategy');
    assert.deepEqual(await counts(), before, 'nothing created before the IdP answers');

    // clerk-js's completeSignUpFlow: PATCH strategy=enterprise_sso, then navigate to the IdP.
    const patched = await browser.patch(`/client/sign_ups/${signUp.id}`, {
      strategy: 'enterprise_sso',
      redirect_url: app('/sign-up/sso-callback'),
      action_complete_redirect_url: app('/dashboard'),
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const external = patched.body.response.verifications.external_account;
    assert.equal(external.status, 'unverified');
    assert.equal(external.strategy, 'enterprise_sso');
    assert.ok(external.external_verification_redirect_url.startsWith(`${IDP_SSO}?SAMLRequest=`));

    const landed = await roundTrip(
      browser,
      await idpAnswer(external.external_verification_redirect_url, {
        email,
        firstName: 'Mary',
        lastName: 'Jackson',
      }),
    );
    assert.equal(landed.status, 303);
    assert.equal(landed.headers.location, app('/dashboard'));
    const c = await client(browser);
    assert.equal(c.sessions.length, 1);
    const user = c.sessions[0].user;
    assert.equal(user.email_addresses[0].email_address, email);
    assert.equal(user.password_enabled, false);
    assert.equal(user.enterprise_accounts.length, 1);
    assert.equal(c.sign_up, null, 'the sign-up is finished');
    const members = await h.identity.deps.db.query<{ role: string }>(
      'SELECT role FROM organization_memberships WHERE organization_id = $1 AND user_id = $2',
      [organizationId, user.id],
    );
    assert.deepEqual(
      members.map((m) => m.role),
      ['org:member'],
    );
  });

  it('a sign-up the IdP refuses fails with the error <SignUp/> shows, and creates nothing', async () => {
    const browser = h.browser();
    const email = acmeEmail('refused-signup');
    const created = await browser.post('/client/sign_ups', { email_address: email });
    const id = created.body.response.id;
    const patched = await browser.patch(`/client/sign_ups/${id}`, {
      strategy: 'enterprise_sso',
      redirect_url: app('/sign-up/sso-callback'),
      action_complete_redirect_url: app('/dashboard'),
    });
    const redirect = patched.body.response.verifications.external_account.external_verification_redirect_url;
    const before = await counts();
    // The IdP vouches for an address outside the connection's domains.
    const landed = await roundTrip(browser, await idpAnswer(redirect, { email: 'intruder@elsewhere.test' }));
    assert.equal(landed.headers.location, app('/sign-up/sso-callback'));
    const c = await client(browser);
    assert.equal(c.sign_up.status, 'missing_requirements');
    assert.equal(c.sign_up.verifications.external_account.status, 'failed');
    assert.ok(c.sign_up.verifications.external_account.error.code, 'an error clerk-js shows');
    assert.deepEqual(await counts(), before);
    assert.equal(c.sessions.length, 0);
  });

  it('with legal consent required: <SignUp/> records the terms accepted; a newcomer from <SignIn/> is asked them before the account', async () => {
    const settings = h.identity.settings.settings;
    await h.identity.settings.set({
      ...settings,
      signUp: { mode: 'public', legalConsent: { enabled: true } },
    });
    try {
      // <SignUp/>: the form sends legal_accepted with the address, then clerk-js goes to the IdP.
      const signingUp = h.browser();
      const email = acmeEmail('consented');
      const created = await signingUp.post('/client/sign_ups', {
        email_address: email,
        legal_accepted: 'true',
      });
      assert.deepEqual(created.body.response.missing_fields, ['enterprise_sso']);
      const patched = await signingUp.patch(`/client/sign_ups/${created.body.response.id}`, {
        strategy: 'enterprise_sso',
        redirect_url: app('/sign-up/sso-callback'),
        action_complete_redirect_url: app('/dashboard'),
      });
      const redirect =
        patched.body.response.verifications.external_account.external_verification_redirect_url;
      const landed = await roundTrip(signingUp, await idpAnswer(redirect, { email }));
      assert.equal(landed.headers.location, app('/dashboard'));
      const signedUp = (await client(signingUp)).sessions[0].user;
      assert.equal(signedUp.legal_accepted_at, h.clock.now.getTime());

      // <SignIn/>: the IdP vouches for someone new, who has consented to nothing yet.
      const browser = h.browser();
      const newcomer = acmeEmail('newcomer');
      const before = await counts();
      const { redirect: toIdp } = await startSso(browser, newcomer);
      const back = await roundTrip(browser, await idpAnswer(toIdp, { email: newcomer, firstName: 'Ada' }));
      assert.equal(back.headers.location, app('/sign-in/sso-callback'));
      const signIn = (await client(browser)).sign_in;
      assert.equal(signIn.first_factor_verification.status, 'transferable');
      assert.deepEqual(await counts(), before, 'no account before the consent');
      const transferred = await browser.post('/client/sign_ups', { transfer: 'true' });
      assert.equal(transferred.status, 200, JSON.stringify(transferred.body));
      assert.deepEqual(transferred.body.response.missing_fields, ['legal_accepted']);
      assert.deepEqual(await counts(), before);
      const accepted = await browser.patch(`/client/sign_ups/${transferred.body.response.id}`, {
        legal_accepted: 'true',
      });
      assert.equal(accepted.body.response.status, 'complete', JSON.stringify(accepted.body));
      const user = accepted.body.client.sessions[0].user;
      assert.equal(user.legal_accepted_at, h.clock.now.getTime());
      assert.equal(user.first_name, 'Ada');
      assert.equal(user.password_enabled, false);
      assert.equal(user.enterprise_accounts[0].protocol, 'saml');
      assert.equal(user.enterprise_accounts[0].enterprise_connection.id, CONNECTION);
      assert.deepEqual(
        user.organization_memberships.map((m: { organization: { id: string }; role: string }) => [
          m.organization.id,
          m.role,
        ]),
        [[organizationId, 'org:member']],
      );
    } finally {
      await h.identity.settings.set(settings);
    }
  });

  it('enterprise SSO may be started for a popup (custom flows), and nowhere else off the allowed origins', async () => {
    const portal = 'https://accounts.localhost:3000';
    const popup = {
      redirect_url: `${portal}/popup-callback?return_url=${encodeURIComponent(app('/sign-in#/sso-callback'))}`,
      action_complete_redirect_url: `${portal}/popup-callback`,
    };
    const browser = h.browser();
    const email = acmeEmail('popup');
    const created = await browser.post('/client/sign_ins', {
      identifier: email,
      strategy: 'enterprise_sso',
      ...popup,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const again = await browser.post(`/client/sign_ins/${created.body.response.id}/prepare_first_factor`, {
      strategy: 'enterprise_sso',
      ...popup,
    });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    const signUp = await h.browser().post('/client/sign_ups', {
      email_address: acmeEmail('popup-signup'),
      strategy: 'enterprise_sso',
      ...popup,
    });
    assert.equal(signUp.status, 200, JSON.stringify(signUp.body));
    assert.equal(signUp.body.response.verifications.external_account.status, 'unverified');
    const evil = await h.browser().post('/client/sign_ins', {
      identifier: acmeEmail('evil'),
      strategy: 'enterprise_sso',
      redirect_url: 'https://accounts.evil.example/popup-callback',
    });
    assert.equal(evil.status, 422);
    // The popup page is for redirect strategies only: a password sign-up may not name it.
    const plain = await h.browser().post('/client/sign_ups', {
      email_address: 'plain@example.com',
      redirect_url: popup.redirect_url,
    });
    assert.equal(plain.status, 422);
  });

  it('manages SAML connections with the Backend API as @clerk/backend calls it', async () => {
    const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown) =>
      h.app.inject({
        method,
        url: `${BAPI}${path}`,
        headers: { authorization: `Bearer ${h.identity.secretKey}` },
        ...(payload ? { payload: payload as Record<string, unknown> } : {}),
      });
    const list = await call('GET', '/v1/saml_connections?limit=10');
    assert.equal(list.statusCode, 200, list.body);
    assert.ok(list.json().data.some((c: { id: string }) => c.id === CONNECTION));
    const one = (await call('GET', `/v1/saml_connections/${CONNECTION}`)).json();
    assert.equal(one.object, 'saml_connection');
    assert.equal(one.domain, DOMAIN);
    assert.equal(one.organization_id, organizationId);
    assert.equal(one.acs_url, `${h.identity.deps.fapiBase}/v1/saml/acs/${CONNECTION}`);
    assert.equal(one.sp_entity_id, `${h.identity.deps.fapiBase}/v1/saml/metadata/${CONNECTION}.xml`);
    assert.equal(one.active, true);
    assert.equal(one.user_count, await h.count('enterprise_accounts', 'connection_id = $1', [CONNECTION]));

    const created = await call('POST', '/v1/saml_connections', {
      name: 'Initech',
      provider: 'saml_okta',
      domain: 'initech.test',
      idp_entity_id: 'https://idp.initech.test',
      idp_sso_url: 'https://idp.initech.test/sso',
      idp_certificate: otherKeys.certificate,
      attribute_mapping: { email_address: 'mail' },
    });
    assert.equal(created.statusCode, 200, created.body);
    const id: string = created.json().id;
    assert.match(id, /^samlc_/);
    assert.equal(created.json().active, false);
    assert.equal(created.json().attribute_mapping.email_address, 'mail');
    const activated = await call('PATCH', `/v1/saml_connections/${id}`, { active: true });
    assert.equal(activated.statusCode, 200, activated.body);
    assert.equal(activated.json().active, true);
    assert.equal(h.identity.settings.settings.enterpriseConnections?.[id]?.enabled, true);
    // A domain another enabled connection has is refused; so is a certificate that is none.
    const taken = await call('PATCH', `/v1/saml_connections/${id}`, { domain: DOMAIN });
    assert.equal(taken.statusCode, 422, taken.body);
    const badCert = await call('PATCH', `/v1/saml_connections/${id}`, {
      idp_certificate: 'not a certificate',
    });
    assert.equal(badCert.statusCode, 422);
    // The IdP's metadata XML gives the entity id, the SSO URL (HTTP-Redirect) and the signing certificate.
    const fromMetadata = await call('PATCH', `/v1/saml_connections/${id}`, {
      idp_metadata: idp.idp.getMetadata(),
    });
    assert.equal(fromMetadata.statusCode, 200, fromMetadata.body);
    assert.equal(fromMetadata.json().idp_entity_id, IDP_ENTITY);
    assert.equal(fromMetadata.json().idp_sso_url, IDP_SSO);
    assert.equal(
      fromMetadata.json().idp_certificate.replace(/\s+/g, ''),
      keys.certificate.replace(/-----[A-Z ]+-----|\s+/g, ''),
    );
    const badMetadata = await call('PATCH', `/v1/saml_connections/${id}`, { idp_metadata: '<nope/>' });
    assert.equal(badMetadata.statusCode, 422);
    // Not supported, and refused rather than ignored.
    for (const body of [
      { idp_metadata_url: 'https://idp.example/metadata' },
      { allow_idp_initiated: true },
      { allow_subdomains: true },
      { provider: 'saml_unknown' },
      { attribute_mapping: { shoe_size: 'x' } },
    ]) {
      const refused = await call('PATCH', `/v1/saml_connections/${id}`, body);
      assert.equal(refused.statusCode, 422, JSON.stringify(body));
      assert.equal(refused.json().errors[0].code, 'form_param_value_invalid');
    }
    const deleted = await call('DELETE', `/v1/saml_connections/${id}`);
    assert.deepEqual(deleted.json(), { object: 'saml_connection', id, deleted: true });
    assert.equal((await call('GET', `/v1/saml_connections/${id}`)).statusCode, 404);
  });
});
