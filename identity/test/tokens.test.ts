import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  jwtVerify,
  SignJWT,
  type JSONWebKeySet,
} from 'jose';
import { forEachBackend } from './support/backends.ts';
import { signInWithPassword, signUp } from './support/flows.ts';
import { FRONTEND_API_HOST, Harness, PUBLIC_URL, uniqueEmail, type Browser } from './support/harness.ts';
import { activate, createOrganization, newMember } from './support/organizations.ts';

forEachBackend('session tokens', (backend) => {
  let h: Harness;
  let email: string;
  let userId: string;
  let jwks: JSONWebKeySet;
  before(async () => {
    h = await Harness.start(backend);
    email = uniqueEmail('tokens');
    ({ userId } = await signUp(h, h.browser(), email));
    const res = await h.bapi('/v1/jwks');
    assert.equal(res.statusCode, 200);
    jwks = res.json() as JSONWebKeySet;
  });
  after(() => h.close());
  // Each test in a fresh rate-limit window: they reuse one identifier and the clock stands still.
  beforeEach(() => h.clock.advance(61));

  async function token(
    browser: Browser,
    sessionId: string,
    form: Record<string, string> = { organization_id: '' },
  ) {
    return browser.post(`/client/sessions/${sessionId}/tokens`, form);
  }

  it('POST /tokens returns a bare {object: "token", jwt}', async () => {
    const browser = h.browser();
    const { sessionId } = await signInWithPassword(browser, email);
    const res = await token(browser, sessionId);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['jwt', 'object']);
    assert.equal(res.body.object, 'token');
    assert.match(res.body.jwt, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'three unpadded base64url parts');
  });

  it('the JWT is RS256 with a kid and carries the session claims, organisation claims in v1 form', async () => {
    const browser = h.browser();
    const { sessionId } = await signInWithPassword(browser, email);
    const res = await token(browser, sessionId);
    const header = decodeProtectedHeader(res.body.jwt);
    assert.equal(header.alg, 'RS256');
    assert.match(header.kid!, /^ins_/);
    assert.equal(header.kid, jwks.keys[0]!.kid);
    assert.ok(header.typ === undefined || header.typ === 'JWT');

    const claims = decodeJwt(res.body.jwt);
    const iat = Math.floor(h.clock.now.getTime() / 1000);
    assert.equal(claims.sub, userId);
    assert.equal(claims.sid, sessionId);
    assert.equal(claims.iat, iat);
    assert.equal(claims.exp! - claims.iat!, 60);
    assert.equal(claims.nbf, iat - 10);
    assert.equal(claims.iss, `https://${FRONTEND_API_HOST}`);
    assert.equal(claims.azp, PUBLIC_URL, 'azp is the request Origin');
    assert.equal(claims.sts, 'active');
    assert.equal('v' in claims, false, 'no `v`: version 1 organisation claims');
    assert.deepEqual(claims.fva, [0, -1]);
    for (const claim of ['org_id', 'org_slug', 'org_role', 'org_permissions', 'o']) {
      assert.equal(claim in claims, false, `${claim} without an active organisation`);
    }
  });

  it('with an organisation active, the token carries org_id, org_slug, org_role and org_permissions', async () => {
    const admin = await newMember(h, 'tokens-org');
    const org = await createOrganization(admin, 'Token Claims Org');
    const touched = await admin.browser.post(`/client/sessions/${admin.sessionId}/touch`, {
      active_organization_id: org.id,
    });
    assert.equal(touched.status, 200, JSON.stringify(touched.body));
    const res = await admin.browser.post(`/client/sessions/${admin.sessionId}/tokens`, {});
    const claims = decodeJwt(res.body.jwt);
    assert.equal(claims.org_id, org.id);
    assert.equal(claims.org_slug, org.slug);
    assert.equal(claims.org_role, 'org:admin');
    assert.ok(Array.isArray(claims.org_permissions));
    assert.ok((claims.org_permissions as string[]).includes('org:sys_memberships:manage'));
    assert.equal('v' in claims, false);
    // clerk-js names the organisation it wants; "" is the personal workspace.
    const personal = decodeJwt(
      (await token(admin.browser, admin.sessionId, { organization_id: '' })).body.jwt,
    );
    assert.equal(personal.org_id, undefined);
    const named = decodeJwt(
      (await token(admin.browser, admin.sessionId, { organization_id: org.id })).body.jwt,
    );
    assert.equal(named.org_id, org.id);
  });

  it('the signature verifies against the Backend API JWKS', async () => {
    const browser = h.browser();
    const { sessionId, jwt: piggyBacked } = await signInWithPassword(browser, email);
    const res = await token(browser, sessionId);
    const keys = createLocalJWKSet(jwks);
    const opts = { issuer: `https://${FRONTEND_API_HOST}`, algorithms: ['RS256'], currentDate: h.clock.now };
    const { payload } = await jwtVerify(res.body.jwt, keys, opts);
    assert.equal(payload.sid, sessionId);
    await jwtVerify(piggyBacked, keys, opts);

    const [head, , sig] = res.body.jwt.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...decodeJwt(res.body.jwt), sub: 'user_someoneelse' }),
    ).toString('base64url');
    await assert.rejects(jwtVerify(`${head}.${forged}.${sig}`, keys, opts), {
      code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    });
  });

  it("the token is byte for byte what jose's SignJWT makes of the same claims and key", async () => {
    const admin = await newMember(h, 'tokens-bytes');
    await activate(admin, (await createOrganization(admin, 'Token Bytes Org')).id);
    const { jwt } = (await admin.browser.post(`/client/sessions/${admin.sessionId}/tokens`, {})).body;
    const { sub, iss, iat, nbf, exp, ...claims } = decodeJwt(jwt);
    assert.ok(claims.org_id, 'with organisation claims');
    const key = h.identity.deps.signingKey;
    const expected = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setSubject(sub!)
      .setIssuer(iss!)
      .setIssuedAt(iat!)
      .setNotBefore(nbf!)
      .setExpirationTime(exp!)
      .sign(key.privateKey);
    assert.equal(jwt, expected);
  });

  it('the JWKS publishes only the public RSA key', async () => {
    assert.equal(jwks.keys.length, 1);
    const key = jwks.keys[0]!;
    assert.deepEqual(Object.keys(key).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
    assert.equal(key.kty, 'RSA');
    assert.equal(key.alg, 'RS256');
    assert.equal(key.use, 'sig');
    assert.equal(key.e, 'AQAB');
    assert.equal(Buffer.from(key.n!, 'base64url').length, 256, 'RSA-2048');
  });

  it('azp follows the Origin header and is absent without one', async () => {
    const browser = h.browser({ origin: null });
    const { sessionId } = await signInWithPassword(browser, email);
    const res = await token(browser, sessionId);
    assert.equal(res.status, 200);
    assert.equal('azp' in decodeJwt(res.body.jwt), false);
  });

  it('fva counts minutes since the first factor', async () => {
    const browser = h.browser();
    const { sessionId } = await signInWithPassword(browser, email);
    h.clock.advance(5 * 60 + 10);
    const res = await token(browser, sessionId);
    assert.deepEqual(decodeJwt(res.body.jwt).fva, [5, -1]);
    const touched = await browser.post(`/client/sessions/${sessionId}/touch`, { active_organization_id: '' });
    assert.deepEqual(touched.body.response.factor_verification_age, [5, -1]);
  });

  it('naming an organisation the user is not a member of yields a token without organisation claims', async () => {
    const browser = h.browser();
    const { sessionId } = await signInWithPassword(browser, email);
    const stranger = await newMember(h, 'tokens-stranger');
    const foreign = await createOrganization(stranger, 'Not Yours');
    for (const organizationId of [foreign.id, foreign.slug, 'org_123']) {
      const res = await token(browser, sessionId, { organization_id: organizationId });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const claims = decodeJwt(res.body.jwt);
      assert.equal(claims.sub, userId);
      for (const claim of ['org_id', 'org_slug', 'org_role', 'org_permissions']) {
        assert.equal(claim in claims, false, `${claim} for ${organizationId}`);
      }
    }
  });

  it('JWT templates, unknown sessions and cookie-less calls are 404', async () => {
    const browser = h.browser();
    const { sessionId } = await signInWithPassword(browser, email);
    for (const res of [
      await browser.post(`/client/sessions/${sessionId}/tokens/supabase`),
      await token(browser, 'sess_unknown'),
      await token(h.browser(), sessionId),
    ]) {
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.equal(res.body.errors[0].code, 'resource_not_found');
    }
  });
});
