import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import type { FastifyRequest } from 'fastify';
import { Authenticator } from '../src/auth/authenticate.ts';
import type { SessionTokenKeys, VerificationKey } from '../src/auth/session-token-keys.ts';
import { VerifiedTokens } from '../src/auth/verified-tokens.ts';

describe('VerifiedTokens: tokens verified once', () => {
  const entry = (expiresAt: number) => ({ value: expiresAt, key: 'pem', kid: 'k', expiresAt });

  test('served until exp, with the 5 s clock skew @clerk/backend allows, then forgotten', () => {
    const tokens = new VerifiedTokens<number>(10, 5_000);
    tokens.set('t', entry(100_000));
    assert.equal(tokens.get('t', 100_000)?.value, 100_000);
    assert.equal(tokens.get('t', 104_999)?.value, 100_000);
    assert.equal(tokens.get('t', 105_000), undefined);
    assert.equal(tokens.size, 0, 'an expired token is dropped, not kept');
  });

  test('bounded: the least recently used token leaves first', () => {
    const tokens = new VerifiedTokens<number>(2);
    tokens.set('a', entry(1e12));
    tokens.set('b', entry(1e12));
    tokens.get('a', 0); // a is now the most recent
    tokens.set('c', entry(1e12));
    assert.equal(tokens.size, 2);
    assert.ok(tokens.get('a', 0));
    assert.equal(tokens.get('b', 0), undefined);
    assert.ok(tokens.get('c', 0));
  });
});

describe('Authenticator: a remembered token', () => {
  /** Keys of a test instance: one RSA key whose PEM can be swapped or dropped; lookups are counted. */
  async function instance() {
    const pair = await generateKeyPair('RS256');
    const pem = await exportSPKI(pair.publicKey);
    let held: VerificationKey | null = pem;
    const keys: SessionTokenKeys = { keyFor: async () => held };
    const authenticator = new Authenticator({
      publishableKey: 'pk_test_Y2xlcmsuZXhhbXBsZS5jb20k',
      secretKey: 'sk_test_unused',
      authorizedParties: [],
      keys,
    });
    const token = (claims: Record<string, unknown> = {}) =>
      new SignJWT({ sid: 'sess_1', ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: 'ins_1', typ: 'JWT' })
        .setSubject('user_1')
        .setIssuedAt()
        .setExpirationTime('60s')
        .sign(pair.privateKey);
    const check = (jwt: string) =>
      authenticator.authenticate({ headers: { authorization: `Bearer ${jwt}` } } as FastifyRequest);
    return { token, check, drop: () => (held = null), rotate: (other: string) => (held = other) };
  }

  test('answers the same caller every time, and its answer cannot be changed by a request', async () => {
    const { token, check } = await instance();
    const jwt = await token({
      org_id: 'org_1',
      org_role: 'org:admin',
      org_permissions: ['org:sys_profile:manage'],
    });
    const first = await check(jwt);
    const again = await check(jwt);
    assert.ok(first.ok && again.ok);
    assert.deepEqual(again, first);
    assert.equal(again.auth.orgId, 'org_1');
    assert.throws(() => {
      (again.auth as { orgId: string | null }).orgId = 'org_2';
    });
    assert.throws(() => (again.auth.orgPermissions as string[]).push('org:vciso:manage'));
  });

  test('refused once the instance drops the key that verified it, or no longer holds it under that kid', async () => {
    const dropped = await instance();
    const jwt = await dropped.token();
    assert.equal((await dropped.check(jwt)).ok, true);
    dropped.drop();
    const refused = await dropped.check(jwt);
    assert.equal(refused.ok, false);

    const rotated = await instance();
    const other = await rotated.token();
    assert.equal((await rotated.check(other)).ok, true);
    rotated.rotate(await exportSPKI((await generateKeyPair('RS256')).publicKey));
    assert.equal(
      (await rotated.check(other)).ok,
      false,
      'verified again against the new key, which did not sign it',
    );
  });

  test('a pending session is never remembered as signed in', async () => {
    const { token, check } = await instance();
    const jwt = await token({ sts: 'pending' });
    assert.equal((await check(jwt)).ok, false);
    assert.equal((await check(jwt)).ok, false);
  });
});
