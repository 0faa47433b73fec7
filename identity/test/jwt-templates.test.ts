// JWT templates: the Backend API's jwtTemplates (through @clerk/backend 2.10.1) and the tokens minted from
// them on the Frontend API wire (clerk-js `session.getToken({ template })`) and by `sessions.getToken`.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, beforeEach, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
} from 'jose';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { BAPI, Harness, PUBLIC_URL, type Json } from './support/harness.ts';
import { activate, createOrganization, newMember, type Member } from './support/organizations.ts';

const OTHER_SECRET_KEY = 'sk_live_otherjwttemplatekey00000000000000000000';
const HS_SECRET = 'a-shared-secret-of-at-least-32-bytes!!';

const CLAIMS = {
  aud: 'https://api.example.com',
  interests: ['hiking', 'knitting'],
  user_id: '{{user.id}}',
  email: '{{user.primary_email_address}}',
  full_name: '{{user.last_name}} {{user.first_name}}',
  plan: "{{user.public_metadata.plan || 'free'}}",
  tier: '{{user.public_metadata.profile.tier}}',
  verified: '{{user.phone_number_verified || user.email_verified}}',
  org_id: '{{org.id}}',
  org_slug: '{{org.slug}}',
  org_role: '{{org.role}}',
  invalid_shortcode: '{{user.i_dont_exist}}',
  someone_else: '{{users.user_2other.id}}',
};

forEachBackend('JWT templates', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  let jwks: JSONWebKeySet;
  let alice: Member;
  let bob: Member;
  let orgId: string;

  const raw = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown) =>
    h.app.inject({
      method,
      url: `${BAPI}${path}`,
      headers: { authorization: `Bearer ${h.identity.secretKey}`, 'content-type': 'application/json' },
      payload: payload === undefined ? undefined : JSON.stringify(payload),
    });
  const templateToken = (member: Member, name: string, sessionId = member.sessionId) =>
    member.browser.post(`/client/sessions/${sessionId}/tokens/${name}`, {});
  const verified = async (jwt: string): Promise<JWTPayload> =>
    (
      await jwtVerify(jwt, createLocalJWKSet(jwks), {
        issuer: h.identity.deps.tokens.issuer,
        currentDate: h.clock.now,
      })
    ).payload;

  before(async () => {
    h = await Harness.start(backend);
    clerk = await backendApiClient(h);
    jwks = (await h.bapi('/v1/jwks')).json() as JSONWebKeySet;
    alice = await newMember(h, 'alice', { firstName: 'Ada' });
    h.clock.advance(1);
    bob = await newMember(h, 'bob', { firstName: 'Bob', lastName: 'Builder' });
    await clerk.users.updateUserMetadata(alice.userId, {
      publicMetadata: { plan: 'pro', profile: { tier: 3 } },
    });
    orgId = (await createOrganization(alice, 'Engines', 'engines')).id;
    await activate(alice, orgId);
  });
  after(() => h.close());
  beforeEach(() => h.clock.advance(61));

  it('creates, gets, lists, updates and deletes templates with Clerk’s shape and defaults', async () => {
    const created = await clerk.jwtTemplates.create({ name: 'crud', claims: { a: '{{user.id}}' } });
    assert.match(created.id, /^jtmp_/);
    assert.equal(created.name, 'crud');
    assert.deepEqual(created.claims, { a: '{{user.id}}' });
    assert.equal(created.lifetime, 60);
    assert.equal(created.allowedClockSkew, 5);
    assert.equal(created.customSigningKey, false);
    assert.equal(created.signingAlgorithm, 'RS256');
    assert.equal(typeof created.createdAt, 'number');

    const json = (await raw('GET', `/v1/jwt_templates/${created.id}`)).json();
    assert.deepEqual(Object.keys(json).sort(), [
      'allowed_clock_skew',
      'claims',
      'created_at',
      'custom_signing_key',
      'id',
      'lifetime',
      'name',
      'object',
      'signing_algorithm',
      'updated_at',
    ]);
    assert.equal(json.object, 'jwt_template');
    assert.equal((await clerk.jwtTemplates.get(created.id)).name, 'crud');

    h.clock.advance(1);
    const second = await clerk.jwtTemplates.create({
      name: 'crud-two',
      claims: {},
      lifetime: 3600,
      allowedClockSkew: 0,
    });
    assert.equal(second.lifetime, 3600);
    assert.equal(second.allowedClockSkew, 0);
    const listed = (await clerk.jwtTemplates.list({ limit: 1, offset: 1 })) as unknown as {
      data: { id: string }[];
      totalCount: number;
    };
    assert.ok(listed.totalCount >= 2);
    const all = (await raw('GET', '/v1/jwt_templates?paginated=true&limit=100')).json();
    const ids = all.data.map((t: Json) => t.id);
    assert.ok(ids.indexOf(created.id) < ids.indexOf(second.id), 'oldest first');
    assert.ok(Array.isArray((await raw('GET', '/v1/jwt_templates')).json()), 'bare array without paginated');

    h.clock.advance(1);
    const updated = await clerk.jwtTemplates.update({
      templateId: created.id,
      name: 'crud-renamed',
      claims: { b: 1 },
      lifetime: 120,
    });
    assert.equal(updated.name, 'crud-renamed');
    assert.deepEqual(updated.claims, { b: 1 });
    assert.equal(updated.lifetime, 120);
    assert.equal(updated.allowedClockSkew, 5, 'left out: kept');
    assert.ok(updated.updatedAt > updated.createdAt);

    await rejectsWith(
      clerk.jwtTemplates.update({ templateId: second.id, name: 'crud-renamed', claims: {} }),
      422,
      'duplicate_record',
      'name',
    );
    await rejectsWith(
      clerk.jwtTemplates.create({ name: 'crud-two', claims: {} }),
      422,
      'duplicate_record',
      'name',
    );

    const deleted = await clerk.jwtTemplates.delete(created.id);
    assert.equal(deleted.id, created.id);
    assert.equal(deleted.deleted, true);
    await rejectsWith(clerk.jwtTemplates.get(created.id), 404, 'resource_not_found');
    await rejectsWith(clerk.jwtTemplates.delete(created.id), 404, 'resource_not_found');
    await rejectsWith(
      clerk.jwtTemplates.update({ templateId: created.id, name: 'x', claims: {} }),
      404,
      'resource_not_found',
    );
    await clerk.jwtTemplates.delete(second.id);
  });

  it('refuses bad templates with Clerk’s errors and stores nothing', async () => {
    const before = await h.count('jwt_templates');
    const refused: [unknown, number, string, string][] = [
      [{ claims: {} }, 422, 'form_param_nil', 'name'],
      [{ name: 'bad' }, 422, 'form_param_nil', 'claims'],
      [{ name: 'bad', claims: [] }, 422, 'form_param_format_invalid', 'claims'],
      [{ name: 'bad', claims: 'x' }, 422, 'form_param_format_invalid', 'claims'],
      [{ name: 'bad', claims: {}, lifetime: 29 }, 422, 'form_param_value_invalid', 'lifetime'],
      [{ name: 'bad', claims: {}, lifetime: 315_360_001 }, 422, 'form_param_value_invalid', 'lifetime'],
      [{ name: 'bad', claims: {}, lifetime: 1.5 }, 422, 'form_param_format_invalid', 'lifetime'],
      [
        { name: 'bad', claims: {}, allowed_clock_skew: 301 },
        422,
        'form_param_value_invalid',
        'allowed_clock_skew',
      ],
      [
        { name: 'bad', claims: {}, allowed_clock_skew: -1 },
        422,
        'form_param_value_invalid',
        'allowed_clock_skew',
      ],
      [{ name: 'bad', claims: { x: '{{user.id' } }, 422, 'form_param_value_invalid', 'claims'],
      [{ name: 'bad', claims: { x: '{{}}' } }, 422, 'form_param_value_invalid', 'claims'],
      [{ name: 'bad', claims: { big: 'x'.repeat(9000) } }, 422, 'form_param_value_invalid', 'claims'],
      [{ name: 'bad/name', claims: {} }, 422, 'form_param_value_invalid', 'name'],
      [{ name: 'x'.repeat(257), claims: {} }, 422, 'form_param_max_length_exceeded', 'name'],
      [{ name: 'bad', claims: {}, custom_signing_key: true }, 422, 'form_param_nil', 'signing_algorithm'],
      [
        {
          name: 'bad',
          claims: {},
          custom_signing_key: true,
          signing_algorithm: 'none',
          signing_key: HS_SECRET,
        },
        422,
        'form_param_value_invalid',
        'signing_algorithm',
      ],
      [
        { name: 'bad', claims: {}, custom_signing_key: true, signing_algorithm: 'HS256' },
        422,
        'form_param_nil',
        'signing_key',
      ],
      [
        {
          name: 'bad',
          claims: {},
          custom_signing_key: true,
          signing_algorithm: 'HS256',
          signing_key: 'short',
        },
        422,
        'form_param_value_invalid',
        'signing_key',
      ],
      [
        {
          name: 'bad',
          claims: {},
          custom_signing_key: true,
          signing_algorithm: 'RS256',
          signing_key: HS_SECRET,
        },
        422,
        'form_param_value_invalid',
        'signing_key',
      ],
    ];
    // The registered claims, which a template cannot override.
    for (const claim of ['iss', 'sub', 'iat', 'exp', 'nbf', 'azp', 'jti', 'sid', 'act']) {
      refused.push([
        { name: 'bad', claims: { [claim]: 'forged' } },
        422,
        'form_param_value_invalid',
        'claims',
      ]);
    }
    for (const [body, status, code, param] of refused) {
      const res = await raw('POST', '/v1/jwt_templates', body);
      assert.equal(res.statusCode, status, `${JSON.stringify(body).slice(0, 200)}: ${res.body}`);
      assert.equal(res.json().errors[0].code, code, JSON.stringify(body).slice(0, 200));
      assert.equal(res.json().errors[0].meta.param_name, param, JSON.stringify(body).slice(0, 200));
    }
    const malformed = await h.app.inject({
      method: 'POST',
      url: `${BAPI}/v1/jwt_templates`,
      headers: { authorization: `Bearer ${h.identity.secretKey}`, 'content-type': 'application/json' },
      payload: '{"name": "bad", "claims": {',
    });
    assert.ok(malformed.statusCode >= 400 && malformed.statusCode < 500, malformed.body);
    assert.equal(await h.count('jwt_templates'), before, 'nothing stored');

    // An update refused changes nothing either.
    const kept = await clerk.jwtTemplates.create({ name: 'kept', claims: { k: 1 } });
    const res = await raw('PATCH', `/v1/jwt_templates/${kept.id}`, { name: 'kept', claims: { sub: 'x' } });
    assert.equal(res.statusCode, 422);
    assert.deepEqual((await clerk.jwtTemplates.get(kept.id)).claims, { k: 1 });
    await clerk.jwtTemplates.delete(kept.id);
  });

  it('clerk-js getToken({ template }) mints the template for the session’s own user and organisation', async () => {
    await clerk.jwtTemplates.create({ name: 'hasura', claims: CLAIMS, lifetime: 300, allowedClockSkew: 10 });
    const res = await templateToken(alice, 'hasura');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['jwt', 'object']);
    assert.equal(res.body.object, 'token');
    const header = decodeProtectedHeader(res.body.jwt);
    assert.equal(header.alg, 'RS256');
    assert.equal(header.kid, jwks.keys[0]!.kid, 'signed with the instance key of the JWKS');
    const claims = await verified(res.body.jwt);
    const { iat, exp, nbf, jti, ...rest } = claims;
    assert.equal(exp! - iat!, 300);
    assert.equal(iat! - nbf!, 10);
    assert.match(jti!, /^[0-9a-f]{20}$/);
    assert.deepEqual(rest, {
      aud: 'https://api.example.com',
      interests: ['hiking', 'knitting'],
      user_id: alice.userId,
      email: alice.email,
      full_name: 'null Ada',
      plan: 'pro',
      tier: 3,
      verified: true,
      org_id: orgId,
      org_slug: 'engines',
      org_role: 'org:admin',
      invalid_shortcode: null,
      someone_else: null,
      azp: PUBLIC_URL,
      iss: h.identity.deps.tokens.issuer,
      sub: alice.userId,
    });
    assert.equal('sid' in claims, false, 'custom JWTs carry no session claims');

    // Bob's token of the same template says Bob, in no organisation, with the fallbacks.
    const bobs = await verified((await templateToken(bob, 'hasura')).body.jwt);
    assert.equal(bobs.sub, bob.userId);
    assert.equal(bobs.user_id, bob.userId);
    assert.equal(bobs.full_name, 'Builder Bob');
    assert.equal(bobs.plan, 'free');
    assert.equal(bobs.org_id, null);
    // Naming Alice's organisation, of which Bob is no member, puts none of it in his token.
    const named = await bob.browser.post(`/client/sessions/${bob.sessionId}/tokens/hasura`, {
      organization_id: orgId,
    });
    assert.equal(named.status, 200);
    assert.equal(decodeJwt(named.body.jwt).org_id, null);
    assert.ok(!JSON.stringify(bobs).includes(alice.userId), "no trace of Alice in Bob's token");

    // Two tokens of one template are told apart by their jti.
    const again = decodeJwt((await templateToken(alice, 'hasura')).body.jwt);
    assert.notEqual(again.jti, jti);
  });

  it('sessions.getToken(sessionId, template) mints it on the Backend API; an unknown name is 404', async () => {
    await clerk.jwtTemplates.create({ name: 'backend', claims: { email: '{{user.primary_email_address}}' } });
    const token = await clerk.sessions.getToken(alice.sessionId, 'backend');
    const claims = await verified(token.jwt);
    assert.equal(claims.sub, alice.userId);
    assert.equal(claims.email, alice.email);
    assert.equal(claims.azp, undefined, 'no page asked');
    assert.equal(claims.exp! - claims.iat!, 60);
    const long = decodeJwt((await clerk.sessions.getToken(alice.sessionId, 'backend', 3600)).jwt);
    assert.equal(long.exp! - long.iat!, 3600);
    await rejectsWith(
      clerk.sessions.getToken(alice.sessionId, 'backend', 10),
      422,
      'form_param_value_invalid',
    );
    await rejectsWith(clerk.sessions.getToken(alice.sessionId, 'nope'), 404, 'resource_not_found');
    await rejectsWith(
      clerk.sessions.getToken('sess_2doesnotexist0000000000', 'backend'),
      404,
      'resource_not_found',
    );
    const fapi = await templateToken(alice, 'nope');
    assert.equal(fapi.status, 404);
    assert.equal(fapi.body.errors[0].code, 'resource_not_found');
  });

  it('a custom signing key signs the tokens, is sealed in the database and never answered back', async () => {
    const hs = await clerk.jwtTemplates.create({
      name: 'custom-hs',
      claims: { e: '{{user.primary_email_address}}' },
      customSigningKey: true,
      signingAlgorithm: 'HS256',
      signingKey: HS_SECRET,
    });
    assert.equal(hs.customSigningKey, true);
    assert.equal(hs.signingAlgorithm, 'HS256');
    const answered = await raw('GET', `/v1/jwt_templates/${hs.id}`);
    assert.ok(!answered.body.includes(HS_SECRET), 'the key is never answered');
    assert.ok(!(await raw('GET', '/v1/jwt_templates')).body.includes(HS_SECRET));
    const [row] = await h.db.query<Json>('SELECT sealed_signing_key FROM jwt_templates WHERE id = $1', [
      hs.id,
    ]);
    assert.ok(row.sealed_signing_key && !row.sealed_signing_key.includes(HS_SECRET), 'sealed');

    const jwt = (await templateToken(alice, 'custom-hs')).body.jwt;
    assert.deepEqual(decodeProtectedHeader(jwt), { alg: 'HS256', typ: 'JWT' });
    const { payload } = await jwtVerify(jwt, new TextEncoder().encode(HS_SECRET), {
      currentDate: h.clock.now,
    });
    assert.equal(payload.e, alice.email);
    await assert.rejects(verified(jwt), 'not verifiable with the JWKS');

    // A sealed key copied onto another template's row does not open there.
    const other = await clerk.jwtTemplates.create({ name: 'copy-target', claims: {} });
    await h.db.query(
      `UPDATE jwt_templates SET sealed_signing_key = $1, signing_algorithm = 'HS256' WHERE id = $2`,
      [row.sealed_signing_key, other.id],
    );
    assert.equal((await templateToken(alice, 'copy-target')).status, 500);
    await clerk.jwtTemplates.delete(other.id);

    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    // Updating the claims alone keeps the key; switching to RS256 needs a key of its own.
    await rejectsWith(
      clerk.jwtTemplates.update({
        templateId: hs.id,
        name: 'custom-hs',
        claims: {},
        signingAlgorithm: 'RS256',
      }),
      422,
      'form_param_nil',
      'signing_key',
    );
    const rs = await clerk.jwtTemplates.update({
      templateId: hs.id,
      name: 'custom-hs',
      claims: { e: '{{user.primary_email_address}}' },
      signingAlgorithm: 'RS256',
      signingKey: pem,
    });
    assert.equal(rs.signingAlgorithm, 'RS256');
    const rsJwt = (await templateToken(alice, 'custom-hs')).body.jwt;
    assert.equal((await jwtVerify(rsJwt, publicKey, { currentDate: h.clock.now })).payload.e, alice.email);
    // ES256 with a P-256 key; a P-384 key does not fit ES256.
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const es = await clerk.jwtTemplates.create({
      name: 'custom-es',
      claims: { u: '{{user.id}}' },
      customSigningKey: true,
      signingAlgorithm: 'ES256',
      signingKey: ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    });
    const esJwt = (await templateToken(alice, 'custom-es')).body.jwt;
    assert.equal(
      (await jwtVerify(esJwt, ec.publicKey, { currentDate: h.clock.now })).payload.u,
      alice.userId,
    );
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey;
    await rejectsWith(
      clerk.jwtTemplates.update({
        templateId: es.id,
        name: 'custom-es',
        claims: {},
        signingAlgorithm: 'ES256',
        signingKey: p384.export({ type: 'pkcs8', format: 'pem' }).toString(),
      }),
      422,
      'form_param_value_invalid',
      'signing_key',
    );
    await clerk.jwtTemplates.delete(es.id);

    // Turning the custom key off goes back to the instance's key.
    const plain = await clerk.jwtTemplates.update({
      templateId: hs.id,
      name: 'custom-hs',
      claims: {},
      customSigningKey: false,
    });
    assert.equal(plain.customSigningKey, false);
    assert.equal(plain.signingAlgorithm, 'RS256');
    await verified((await templateToken(alice, 'custom-hs')).body.jwt);
    const [cleared] = await h.db.query<Json>('SELECT sealed_signing_key FROM jwt_templates WHERE id = $1', [
      hs.id,
    ]);
    assert.equal(cleared.sealed_signing_key, null);
  });

  it('a registered claim forced into a stored template still cannot override the provider’s', async () => {
    const t = await clerk.jwtTemplates.create({ name: 'forced', claims: {} });
    await h.db.query(`UPDATE jwt_templates SET claims = $1 WHERE id = $2`, [
      JSON.stringify({ sub: bob.userId, iss: 'https://evil.example', exp: 9999999999, sid: 'sess_forged' }),
      t.id,
    ]);
    const claims = decodeJwt((await templateToken(alice, 'forced')).body.jwt);
    assert.equal(claims.sub, alice.userId);
    assert.equal(claims.iss, h.identity.deps.tokens.issuer);
    assert.ok(claims.exp! < 9999999999);
    assert.equal('sid' in claims, false);
    await clerk.jwtTemplates.delete(t.id);
  });

  it('a revoked session, a signed-out client and a browser without a client get no template token', async () => {
    await clerk.jwtTemplates.create({ name: 'gate', claims: { u: '{{user.id}}' } });
    const carol = await newMember(h, 'carol');
    assert.equal((await templateToken(carol, 'gate')).status, 200);
    await clerk.sessions.revokeSession(carol.sessionId);
    const revoked = await templateToken(carol, 'gate');
    assert.equal(revoked.status, 404);
    assert.equal(revoked.body.errors[0].code, 'resource_not_found');
    await rejectsWith(clerk.sessions.getToken(carol.sessionId, 'gate'), 404, 'resource_not_found');

    const dave = await newMember(h, 'dave');
    assert.equal((await dave.browser.post(`/client/sessions/${dave.sessionId}/end`)).status, 200);
    const ended = await templateToken(dave, 'gate');
    assert.equal(ended.status, 404);
    await rejectsWith(clerk.sessions.getToken(dave.sessionId, 'gate'), 404, 'resource_not_found');

    // Another browser presenting Alice's session id: not its client's session.
    const stranger = await h.browser().post(`/client/sessions/${alice.sessionId}/tokens/gate`, {});
    assert.equal(stranger.status, 404);
    const bobAsAlice = await templateToken(bob, 'gate', alice.sessionId);
    assert.equal(bobAsAlice.status, 404);
  });

  it("another instance neither sees nor uses this instance's templates, and its key is refused here", async () => {
    const mine = await clerk.jwtTemplates.create({ name: 'private', claims: { u: '{{user.id}}' } });
    const other = await Harness.start(backend, { config: { secretKey: OTHER_SECRET_KEY } });
    try {
      const otherClerk = await backendApiClient(other);
      await rejectsWith(otherClerk.jwtTemplates.get(mine.id), 404, 'resource_not_found');
      await rejectsWith(
        otherClerk.jwtTemplates.update({ templateId: mine.id, name: 'stolen', claims: {} }),
        404,
        'resource_not_found',
      );
      await rejectsWith(otherClerk.jwtTemplates.delete(mine.id), 404, 'resource_not_found');
      await rejectsWith(otherClerk.sessions.getToken(alice.sessionId, 'private'), 404, 'resource_not_found');
      const theirs = (
        await other.app.inject({
          method: 'GET',
          url: `${BAPI}/v1/jwt_templates?paginated=true`,
          headers: { authorization: `Bearer ${OTHER_SECRET_KEY}` },
        })
      ).json();
      assert.equal(theirs.total_count, 0);
      // A template of the same name there mints nothing for a session of this instance.
      await otherClerk.jwtTemplates.create({ name: 'private', claims: { u: '{{user.id}}' } });
      await rejectsWith(otherClerk.sessions.getToken(alice.sessionId, 'private'), 404, 'resource_not_found');
      const wrongKey = await h.app.inject({
        method: 'GET',
        url: `${BAPI}/v1/jwt_templates/${mine.id}`,
        headers: { authorization: `Bearer ${OTHER_SECRET_KEY}` },
      });
      assert.equal(wrongKey.statusCode, 401);
    } finally {
      await other.close();
    }
    assert.equal((await clerk.jwtTemplates.get(mine.id)).name, 'private');
  });
});
