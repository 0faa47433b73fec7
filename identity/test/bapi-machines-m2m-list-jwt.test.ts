import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { createClerkClient, verifyToken, type ClerkClient } from '@clerk/backend';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type JSONWebKeySet,
} from 'jose';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { BAPI, Harness } from './support/harness.ts';

/**
 * What @clerk/backend after 2.10.1 adds to `m2m` (docs/backend-api.md): `list` (`GET /m2m_tokens`) and the
 * JWT format (`createToken({ tokenFormat: 'jwt' })`, verified offline against the instance's JWKS). Called
 * over HTTP exactly as @clerk/backend 2.33.6 sends them (api/endpoints/M2MTokenApi.ts, api/request.ts);
 * what 2.10.1 has (`verifyToken`, `revokeToken`, the networkless `verifyToken` of session JWTs, whose
 * checks 2.33.6's `verifyM2MJwt` runs too) through the installed SDK.
 */

const OTHER_SECRET_KEY = 'sk_live_otherinstancekey000000000000000000000';

/** The headers of @clerk/backend 2.33.6's requests (it sets the JSON content type on GETs too). */
const LATER_SDK_HEADERS = {
  'Clerk-API-Version': '2025-11-10',
  'User-Agent': '@clerk/backend@2.33.6',
  'Content-Type': 'application/json',
};

interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

forEachBackend('Backend API M2M token list and JWT format, as later @clerk/backend sends them', (backend) => {
  let h: Harness;
  let other: Harness;
  let clerk: ClerkClient;
  let otherClerk: ClerkClient;
  let apiUrl: string;
  let otherApiUrl: string;

  before(async () => {
    h = await Harness.start(backend);
    other = await Harness.start(backend, { config: { secretKey: OTHER_SECRET_KEY } });
    clerk = await backendApiClient(h);
    otherClerk = await backendApiClient(other);
    const urlOf = (x: Harness) => `http://127.0.0.1:${(x.app.server.address() as AddressInfo).port}${BAPI}`;
    apiUrl = urlOf(h);
    otherApiUrl = urlOf(other);
  });
  after(async () => {
    await other.close();
    await h.close();
  });

  /** `m2m.list(params)` of 2.33.6: a GET without `/v1`, its parameters as the query. */
  const list = async (key: string, params: Record<string, string | number | boolean>, base = apiUrl) => {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    const res = await fetch(`${base}/m2m_tokens?${query}`, {
      headers: { ...LATER_SDK_HEADERS, Authorization: `Bearer ${key}` },
    });
    return { status: res.status, body: await res.json() } as Answer;
  };

  /** `m2m.createToken(params)` of 2.33.6: every field sent, `null` when not given, `token_format` opaque by default. */
  const createToken = async (
    machineSecretKey: string,
    params: { secondsUntilExpiration?: number; claims?: unknown; tokenFormat?: string } = {},
    base = apiUrl,
  ) => {
    const res = await fetch(`${base}/m2m_tokens`, {
      method: 'POST',
      headers: { ...LATER_SDK_HEADERS, Authorization: `Bearer ${machineSecretKey}` },
      body: JSON.stringify({
        seconds_until_expiration: params.secondsUntilExpiration ?? null,
        claims: params.claims ?? null,
        token_format: params.tokenFormat ?? 'opaque',
      }),
    });
    return { status: res.status, body: await res.json() } as Answer;
  };

  const machineClient = (machineSecretKey: string) =>
    createClerkClient({ apiUrl, machineSecretKey, publishableKey: h.identity.publishableKey });

  const jwksOf = async (x: Harness) => (await x.bapi('/v1/jwks')).json() as JSONWebKeySet;

  it('list: a machine’s tokens, live by default, revoked and expired when asked, paginated newest first', async () => {
    const receiver = await clerk.machines.create({ name: 'list-receiver' });
    const a = await clerk.machines.create({ name: 'list-a', scopedMachines: [receiver.id] });
    const b = await clerk.machines.create({ name: 'list-b', scopedMachines: [receiver.id] });
    const asA = machineClient(a.secretKey!);
    const expiring = await asA.m2m.createToken({ secondsUntilExpiration: 30 });
    h.clock.advance(1);
    const revoked = await asA.m2m.createToken({ claims: { job: 'old' } });
    await asA.m2m.revokeToken({ m2mTokenId: revoked.id, revocationReason: 'rotated' });
    h.clock.advance(1);
    const live1 = await asA.m2m.createToken();
    h.clock.advance(1);
    const live2 = await asA.m2m.createToken({ claims: { job: 'new' } });
    const theirs = await machineClient(b.secretKey!).m2m.createToken();
    // A JWT token is not stored, so not listed.
    assert.equal((await createToken(a.secretKey!, { tokenFormat: 'jwt' })).status, 200);

    const ids = (answer: Answer) => answer.body.m2m_tokens.map((t: { id: string }) => t.id);
    h.clock.advance(31);
    try {
      const live = await list(h.identity.secretKey, { subject: a.id });
      assert.equal(live.status, 200, JSON.stringify(live.body));
      assert.deepEqual(Object.keys(live.body).sort(), ['m2m_tokens', 'total_count']);
      assert.deepEqual(ids(live), [live2.id, live1.id]);
      assert.equal(live.body.total_count, 2);
      const first = live.body.m2m_tokens[0];
      assert.equal(first.object, 'machine_to_machine_token');
      assert.equal(first.subject, a.id);
      assert.deepEqual(first.scopes, [receiver.id]);
      assert.deepEqual(first.claims, { job: 'new' });
      assert.equal(first.token, undefined, 'a token is shown in its creation only');
      assert.equal(first.revoked, false);
      assert.equal(first.expired, false);
      assert.equal(typeof first.expiration, 'number');
      assert.ok(!ids(live).includes(theirs.id), 'another machine’s tokens are not listed');

      const withRevoked = await list(h.identity.secretKey, { subject: a.id, revoked: true });
      assert.deepEqual(ids(withRevoked), [live2.id, live1.id, revoked.id]);
      const gone = withRevoked.body.m2m_tokens[2];
      assert.equal(gone.revoked, true);
      assert.equal(gone.revocation_reason, 'rotated');
      const withExpired = await list(h.identity.secretKey, { subject: a.id, expired: true });
      assert.deepEqual(ids(withExpired), [live2.id, live1.id, expiring.id]);
      assert.equal(withExpired.body.m2m_tokens[2].expired, true);
      const all = await list(h.identity.secretKey, { subject: a.id, revoked: true, expired: true });
      assert.deepEqual(ids(all), [live2.id, live1.id, revoked.id, expiring.id]);
      assert.equal(all.body.total_count, 4);
      const page = await list(h.identity.secretKey, {
        subject: a.id,
        revoked: true,
        expired: true,
        limit: 2,
        offset: 1,
      });
      assert.deepEqual(ids(page), [live1.id, revoked.id]);
      assert.equal(page.body.total_count, 4);
      const past = await list(h.identity.secretKey, { subject: a.id, offset: 10 });
      assert.deepEqual(past.body, { m2m_tokens: [], total_count: 2 });

      // A machine's key lists its own tokens; another machine's list is empty to it.
      assert.deepEqual(ids(await list(a.secretKey!, { subject: a.id })), [live2.id, live1.id]);
      assert.deepEqual((await list(a.secretKey!, { subject: b.id })).body, {
        m2m_tokens: [],
        total_count: 0,
      });
      assert.deepEqual((await list(b.secretKey!, { subject: a.id, revoked: true, expired: true })).body, {
        m2m_tokens: [],
        total_count: 0,
      });
      assert.deepEqual(ids(await list(h.identity.secretKey, { subject: b.id })), [theirs.id]);
      // An unknown machine has no tokens; another instance's key sees none of this one's.
      assert.deepEqual((await list(h.identity.secretKey, { subject: 'mch_unknown' })).body, {
        m2m_tokens: [],
        total_count: 0,
      });
      const foreign = await list(
        OTHER_SECRET_KEY,
        { subject: a.id, revoked: true, expired: true },
        otherApiUrl,
      );
      assert.deepEqual(foreign.body, { m2m_tokens: [], total_count: 0 });
      const foreignMachine = await list(a.secretKey!, { subject: a.id }, otherApiUrl);
      assert.equal(foreignMachine.status, 401);
      assert.equal(foreignMachine.body.errors[0].code, 'clerk_key_invalid');
    } finally {
      h.clock.advance(-34);
    }
  });

  it('list refuses malformed parameters in Clerk’s 422 envelope, and callers without a key', async () => {
    const m = await clerk.machines.create({ name: 'list-bad' });
    const refused = async (params: Record<string, string>, code: string, param: string) => {
      const answer = await list(h.identity.secretKey, params);
      assert.equal(answer.status, 422, JSON.stringify(answer.body));
      const [error] = answer.body.errors;
      assert.equal(error.code, code);
      assert.equal(error.meta.param_name, param);
      assert.equal(typeof error.message, 'string');
      assert.equal(typeof error.long_message, 'string');
    };
    await refused({}, 'form_param_nil', 'subject');
    await refused({ subject: '  ' }, 'form_param_nil', 'subject');
    await refused({ subject: m.id, revoked: 'maybe' }, 'form_param_format_invalid', 'revoked');
    await refused({ subject: m.id, expired: 'yes' }, 'form_param_format_invalid', 'expired');
    await refused({ subject: m.id, limit: '0' }, 'form_param_value_invalid', 'limit');
    await refused({ subject: m.id, limit: '501' }, 'form_param_value_invalid', 'limit');
    await refused({ subject: m.id, limit: 'ten' }, 'form_param_format_invalid', 'limit');
    await refused({ subject: m.id, offset: '-1' }, 'form_param_format_invalid', 'offset');
    const anonymous = await fetch(`${apiUrl}/m2m_tokens?subject=${m.id}`, { headers: LATER_SDK_HEADERS });
    assert.equal(anonymous.status, 401);
    const wrongKey = await list(`ak_${'A'.repeat(48)}`, { subject: m.id });
    assert.equal(wrongKey.status, 401);
  });

  it('JWT format: signed with the instance’s key, verified offline against its JWKS, nothing stored', async () => {
    const receiver = await clerk.machines.create({ name: 'jwt-receiver' });
    const second = await clerk.machines.create({ name: 'jwt-second' });
    const sender = await clerk.machines.create({
      name: 'jwt-sender',
      scopedMachines: [receiver.id, second.id],
    });
    const tokens = await h.count('m2m_tokens');

    const made = await createToken(sender.secretKey!, {
      tokenFormat: 'jwt',
      secondsUntilExpiration: 600,
      claims: { role: 'service', tier: 'gold' },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const jwt = made.body.token as string;
    assert.match(jwt, /^[a-zA-Z0-9\-_]+\.[a-zA-Z0-9\-_]+\.[a-zA-Z0-9\-_]+$/, 'what isJwtFormat recognises');
    assert.equal(await h.count('m2m_tokens'), tokens, 'a JWT token is not stored');
    assert.equal(made.body.object, 'machine_to_machine_token');
    assert.equal(made.body.subject, sender.id);
    assert.deepEqual([...made.body.scopes].sort(), [receiver.id, second.id].sort());
    assert.deepEqual(made.body.claims, { role: 'service', tier: 'gold' });
    assert.equal(made.body.revoked, false);
    assert.equal(made.body.expired, false);

    // Offline: the JWKS fetched once, then no call per token.
    const jwks = await jwksOf(h);
    const header = decodeProtectedHeader(jwt);
    assert.deepEqual(header, { alg: 'RS256', kid: jwks.keys[0]!.kid, typ: 'JWT' });
    const { payload } = await jwtVerify(jwt, createLocalJWKSet(jwks), {
      algorithms: ['RS256'],
      issuer: h.identity.deps.tokens.issuer,
      currentDate: h.clock.now,
    });
    assert.equal(payload.sub, sender.id, 'sub: the machine (isM2MJwt reads mch_)');
    assert.equal(payload.jti, made.body.id, 'jti: the token’s id');
    assert.match(payload.jti!, /^m2m_/);
    assert.deepEqual([...(payload.aud as string[])].sort(), [receiver.id, second.id].sort());
    assert.deepEqual((payload.scopes as string).split(' '), payload.aud);
    assert.equal(payload.exp! - payload.iat!, 600);
    assert.equal(payload.exp! * 1000, made.body.expiration);
    assert.equal(payload.iat! * 1000, made.body.created_at);
    assert.equal(payload.role, 'service');
    assert.equal(payload.tier, 'gold');
    assert.equal(payload.sid, undefined, 'no session claim: never a session token');

    // @clerk/backend's own verification of a JWT against the JWKS: the checks of `verifyJwt`, which
    // 2.33.6's `m2m.verify` runs on a JWT token. (Its `jwtKey` PEM is cached once per process, whatever the
    // key, so the second database's instance could not use it here.)
    const offline = await verifyToken(jwt, { secretKey: h.identity.secretKey, apiUrl, skipJwksCache: true });
    assert.equal(offline.sub, sender.id);
    // Another instance's keys do not verify it.
    await assert.rejects(
      jwtVerify(jwt, createLocalJWKSet(await jwksOf(other)), { currentDate: h.clock.now }),
    );

    // Without claims or scopes: neither `aud` nor `scopes`, and the machine's default lifetime.
    const bare = await clerk.machines.create({ name: 'jwt-bare', defaultTokenTtl: 120 });
    const plain = await createToken(bare.secretKey!, { tokenFormat: 'jwt' });
    assert.equal(plain.status, 200, JSON.stringify(plain.body));
    const plainClaims = (
      await jwtVerify(plain.body.token, createLocalJWKSet(jwks), { currentDate: h.clock.now })
    ).payload;
    assert.deepEqual(Object.keys(plainClaims).sort(), ['exp', 'iat', 'iss', 'jti', 'nbf', 'sub']);
    assert.equal(plainClaims.exp! - plainClaims.iat!, 120);
    assert.deepEqual(plain.body.scopes, []);
    assert.equal(plain.body.claims, null);

    // The opaque format, explicit or by default, as before.
    const opaque = await createToken(sender.secretKey!, { tokenFormat: 'opaque' });
    assert.match(opaque.body.token, /^mt_[0-9A-Za-z]{48}$/);
    assert.equal(await h.count('m2m_tokens'), tokens + 1);
  });

  it('JWT format abuse: bad format or claims, the instance’s key, revocation, forged and foreign tokens', async () => {
    const receiver = await clerk.machines.create({ name: 'jwt-abuse-r' });
    const outsider = await clerk.machines.create({ name: 'jwt-abuse-o' });
    const sender = await clerk.machines.create({ name: 'jwt-abuse-s', scopedMachines: [receiver.id] });
    const tokens = await h.count('m2m_tokens');
    const refused = async (answer: Answer, status: number, code: string, param?: string) => {
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      assert.equal(answer.body.errors[0].code, code);
      if (param) assert.equal(answer.body.errors[0].meta.param_name, param);
    };
    await refused(
      await createToken(sender.secretKey!, { tokenFormat: 'paseto' }),
      422,
      'form_param_value_invalid',
      'token_format',
    );
    await refused(
      await createToken(sender.secretKey!, { tokenFormat: 7 as never }),
      422,
      'form_param_format_invalid',
      'token_format',
    );
    // A custom claim may not take the token's own, nor pass it off as a session's.
    for (const claims of [
      { sub: receiver.id },
      { sid: 'sess_x' },
      { exp: 9999999999 },
      { org_id: 'org_x' },
      { aud: 'x' },
    ]) {
      await refused(
        await createToken(sender.secretKey!, { tokenFormat: 'jwt', claims }),
        422,
        'form_param_value_invalid',
        'claims',
      );
    }
    await refused(
      await createToken(sender.secretKey!, { tokenFormat: 'jwt', secondsUntilExpiration: 0 }),
      422,
      'form_param_value_invalid',
    );
    await refused(await createToken(h.identity.secretKey, { tokenFormat: 'jwt' }), 403, 'not_allowed_access');
    assert.equal(await h.count('m2m_tokens'), tokens);

    const made = await createToken(sender.secretKey!, { tokenFormat: 'jwt', secondsUntilExpiration: 60 });
    const jwt = made.body.token as string;
    // 2.10.1's `m2m.verifyToken` sends any token to the Backend API: a JWT is checked there too, with what
    // only the provider knows (the machine still there, still scoped to the caller).
    const seen = await machineClient(receiver.secretKey!).m2m.verifyToken({ token: jwt });
    assert.equal(seen.id, made.body.id);
    assert.equal(seen.subject, sender.id);
    assert.equal((await clerk.m2m.verifyToken({ token: jwt })).subject, sender.id);
    await rejectsWith(
      machineClient(outsider.secretKey!).m2m.verifyToken({ token: jwt }),
      404,
      'resource_not_found',
    );
    await rejectsWith(otherClerk.m2m.verifyToken({ token: jwt }), 404, 'resource_not_found');

    // Not stored, so not revocable (Clerk's word): its id is unknown to the revocation.
    await rejectsWith(
      machineClient(sender.secretKey!).m2m.revokeToken({ m2mTokenId: made.body.id }),
      404,
      'resource_not_found',
    );
    await rejectsWith(clerk.m2m.revokeToken({ m2mTokenId: made.body.id }), 404, 'resource_not_found');

    // Forged: signed with another key, or re-signed claims of another machine, or tampered.
    const { privateKey } = await generateKeyPair('RS256');
    const [ours] = (await jwksOf(h)).keys;
    const forged = await new SignJWT({
      jti: 'm2m_forged',
      sub: sender.id,
      iss: h.identity.deps.tokens.issuer,
    })
      .setProtectedHeader({ alg: 'RS256', kid: ours!.kid, typ: 'JWT' })
      .setIssuedAt(Math.floor(h.clock.now.getTime() / 1000))
      .setExpirationTime('1h')
      .sign(privateKey);
    await rejectsWith(clerk.m2m.verifyToken({ token: forged }), 404, 'resource_not_found');
    const [head, body, signature] = jwt.split('.');
    const otherBody = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), sub: outsider.id }),
    ).toString('base64url');
    await rejectsWith(
      clerk.m2m.verifyToken({ token: `${head}.${otherBody}.${signature}` }),
      404,
      'resource_not_found',
    );

    // Expired: refused online; the offline check refuses it too.
    h.clock.advance(66);
    try {
      await rejectsWith(clerk.m2m.verifyToken({ token: jwt }), 404, 'resource_not_found');
    } finally {
      h.clock.advance(-66);
    }

    // A scope removed: the Backend API refuses the token for that machine at once.
    await clerk.machines.deleteScope(sender.id, receiver.id);
    await rejectsWith(
      machineClient(receiver.secretKey!).m2m.verifyToken({ token: jwt }),
      404,
      'resource_not_found',
    );

    // Its machine deleted: the Backend API refuses it; offline, nothing can know before `exp`.
    await clerk.machines.delete(sender.id);
    await rejectsWith(clerk.m2m.verifyToken({ token: jwt }), 404, 'resource_not_found');
    const offline = await jwtVerify(jwt, createLocalJWKSet(await jwksOf(h)), { currentDate: h.clock.now });
    assert.equal(offline.payload.sub, sender.id, 'a JWT stays valid offline until it expires');
  });
});
