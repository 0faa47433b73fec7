import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { apiKeysCall, apiKeysOf, sessionJwt } from './support/api-keys.ts';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { Harness, type Json } from './support/harness.ts';
import {
  addMember,
  assertError,
  createOrganization,
  newMember,
  type Member,
} from './support/organizations.ts';

/**
 * API keys end to end on the wire: <APIKeys/>'s Frontend API calls as clerk-js 5.90.0 makes them (session
 * token, no /v1, JSON with a numeric `seconds_until_expiration`), @clerk/backend 2.10.1's `apiKeys`, and
 * every refusal with its code. Bad input changes nothing.
 */

const DAY = 86_400;
const ALL_ON = { enabled: true, userKeys: true, organizationKeys: true };

forEachBackend('API keys', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  let owner: Member;
  let other: Member;
  let admin: Member;
  let reader: Member;
  let plain: Member;
  let org: Json;

  before(async () => {
    h = await Harness.start(backend);
    await h.identity.settings.set({ ...h.identity.settings.settings, apiKeys: ALL_ON });
    clerk = await backendApiClient(h);
    owner = await newMember(h, 'owner');
    other = await newMember(h, 'other');
    admin = await newMember(h, 'admin');
    reader = await newMember(h, 'vciso');
    plain = await newMember(h, 'member');
    org = await createOrganization(admin, 'Keys Inc');
    await addMember(admin, org.id, reader, 'org:vciso');
    await addMember(admin, org.id, plain, 'org:member');
  });
  after(() => h.close());

  const ok = (res: { status: number; body: Json }) => {
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const keyRows = () => h.db.query('SELECT * FROM api_keys ORDER BY id');

  describe('environment', () => {
    it('api_keys_settings.enabled follows the instance setting', async () => {
      const on = await h.browser().get('/environment');
      assert.equal(on.body.api_keys_settings.enabled, true);
      const { apiKeys: _, ...rest } = h.identity.settings.settings;
      await h.identity.settings.set(rest);
      const off = await h.browser().get('/environment');
      assert.equal(off.body.api_keys_settings.enabled, false);
      await h.identity.settings.set({ ...rest, apiKeys: ALL_ON });
    });
  });

  describe("a user's own keys through <APIKeys/>", () => {
    it('creates with an expiration, lists, reveals the secret at any time, revokes', async () => {
      const mine = apiKeysOf(h, owner);
      const created = ok(
        await mine.create({
          name: 'CI deploys',
          subject: owner.userId,
          description: 'for the pipeline',
          seconds_until_expiration: 7 * DAY,
        }),
      );
      const key = created.response;
      assert.equal(created.client, null);
      assert.match(key.id, /^ak_/);
      assert.equal(key.object, 'api_key');
      assert.equal(key.type, 'api_key');
      assert.equal(key.name, 'CI deploys');
      assert.equal(key.subject, owner.userId);
      assert.equal(key.description, 'for the pipeline');
      assert.equal(key.created_by, owner.userId);
      assert.deepEqual(key.scopes, []);
      assert.equal(key.claims, null);
      assert.equal(key.revoked, false);
      assert.equal(key.expired, false);
      assert.equal(key.expiration, key.created_at + 7 * DAY * 1000);
      assert.equal(key.last_used_at, null);
      assert.equal('secret' in key, false, 'the Frontend API reveals the secret on demand only');

      const listed = ok(await mine.list(owner.userId));
      assert.deepEqual(
        listed.api_keys.map((k: Json) => k.id),
        [key.id],
      );
      const { secret } = ok(await mine.secret(key.id));
      assert.match(secret, /^ak_[0-9A-Za-z]{48}$/);
      // Revealed again, the same.
      assert.equal(ok(await mine.secret(key.id)).secret, secret);

      // Stored neither in the clear nor as a plain digest.
      const [row] = await h.db.query<Json>('SELECT * FROM api_keys WHERE id = $1', [key.id]);
      assert.equal(JSON.stringify(row).includes(secret.slice(3)), false);

      // The Backend API verifies it, as the product server's @clerk/backend asks.
      const verified = await clerk.apiKeys.verifySecret(secret);
      assert.equal(verified.id, key.id);
      assert.equal(verified.subject, owner.userId);

      const revoked = ok(await mine.revoke(key.id, { revocation_reason: 'rotated' })).response;
      assert.equal(revoked.revoked, true);
      assert.equal(revoked.revocation_reason, 'rotated');
      assert.deepEqual(ok(await mine.list(owner.userId)).api_keys, []);
      // Gone for good: not revealed, not revoked again, not verified.
      assertError(await mine.secret(key.id), 404, 'resource_not_found');
      assertError(await mine.revoke(key.id), 404, 'resource_not_found');
      await rejectsWith(clerk.apiKeys.verifySecret(secret), 404, 'resource_not_found');
    });

    it('takes every expiration <APIKeys/> offers, or none, and refuses any other', async () => {
      const mine = apiKeysOf(h, owner);
      for (const days of [1, 7, 30, 60, 90, 180, 365]) {
        const key = ok(
          await mine.create({
            name: `exp ${days}`,
            subject: owner.userId,
            seconds_until_expiration: days * DAY,
          }),
        ).response;
        assert.equal(key.expiration - key.created_at, days * DAY * 1000);
      }
      const never = ok(await mine.create({ name: 'forever', subject: owner.userId })).response;
      assert.equal(never.expiration, null);
      const before = await keyRows();
      for (const seconds of [3600, 2 * DAY, 0, -DAY, 400 * DAY]) {
        assertError(
          await mine.create({
            name: `bad ${seconds}`,
            subject: owner.userId,
            seconds_until_expiration: seconds,
          }),
          422,
          'form_param_value_invalid',
          'seconds_until_expiration',
        );
      }
      for (const seconds of ['soon', 1.5, true, [DAY]]) {
        const res = await mine.create({
          name: 'bad',
          subject: owner.userId,
          seconds_until_expiration: seconds,
        });
        assert.equal(res.status, 422, JSON.stringify(res.body));
        assert.equal(res.body.errors[0].code, 'form_param_format_invalid');
      }
      assert.deepEqual(await keyRows(), before, 'nothing was created');
      for (const k of ok(await mine.list(owner.userId)).api_keys) ok(await mine.revoke(k.id));
    });

    it('refuses a missing or too long name, a long description, a taken name (409), a wrong type or subject', async () => {
      const mine = apiKeysOf(h, owner);
      ok(await mine.create({ name: 'taken', subject: owner.userId }));
      const before = await keyRows();
      assertError(await mine.create({ subject: owner.userId }), 422, 'form_param_nil', 'name');
      assertError(await mine.create({ name: '   ', subject: owner.userId }), 422, 'form_param_nil', 'name');
      assertError(
        await mine.create({ name: 'n'.repeat(65), subject: owner.userId }),
        422,
        'form_param_max_length_exceeded',
        'name',
      );
      assertError(
        await mine.create({ name: 'long', subject: owner.userId, description: 'd'.repeat(501) }),
        422,
        'form_param_max_length_exceeded',
        'description',
      );
      assertError(await mine.create({ name: 'taken', subject: owner.userId }), 409, 'duplicate_record');
      assertError(
        await mine.call('POST', '/api_keys', { type: 'machine', name: 'x', subject: owner.userId }),
        422,
        'form_param_value_invalid',
        'type',
      );
      assertError(
        await mine.create({ name: 'x', subject: 'ins_1' }),
        422,
        'form_param_value_invalid',
        'subject',
      );
      assertError(await mine.create({ name: 7, subject: owner.userId }), 422, 'form_param_format_invalid');
      // Another user as subject: nothing to say about them.
      assertError(await mine.create({ name: 'x', subject: other.userId }), 404, 'resource_not_found');
      assert.deepEqual(await keyRows(), before, 'nothing changed');
      // A revoked key's name is free again.
      const [taken] = ok(await mine.list(owner.userId)).api_keys;
      ok(await mine.revoke(taken.id));
      const again = ok(await mine.create({ name: 'taken', subject: owner.userId })).response;
      ok(await mine.revoke(again.id));
    });

    it('without a subject, the caller is the subject', async () => {
      const mine = apiKeysOf(h, owner);
      const key = ok(await mine.call('POST', '/api_keys', { name: 'implicit' })).response;
      assert.equal(key.subject, owner.userId);
      ok(await mine.revoke(key.id));
    });

    it('holds at most 100 keys that are not revoked', async () => {
      const capped = await newMember(h, 'capped');
      for (let i = 0; i < 100; i++) await clerk.apiKeys.create({ name: `k${i}`, subject: capped.userId });
      const mine = apiKeysOf(h, capped);
      assertError(
        await mine.create({ name: 'one more', subject: capped.userId }),
        403,
        'api_keys_quota_exceeded',
      );
      assert.equal(ok(await mine.list(capped.userId)).api_keys.length, 100);
      const [first] = ok(await mine.list(capped.userId)).api_keys;
      ok(await mine.revoke(first.id));
      ok(await mine.create({ name: 'one more', subject: capped.userId }));
    });
  });

  describe('the session token authorises the calls', () => {
    it('no token is no_session_token; a forged, expired or ended session token is refused', async () => {
      const before = await keyRows();
      for (const [method, path] of [
        ['GET', '/api_keys'],
        ['POST', '/api_keys'],
        ['GET', '/api_keys/ak_x/secret'],
        ['POST', '/api_keys/ak_x/revoke'],
      ] as const) {
        assertError(await apiKeysCall(h, null, method, path, { name: 'x' }), 401, 'no_session_token');
      }
      const jwt = await sessionJwt(owner);
      const forged = `${jwt.slice(0, -6)}AAAAAA`;
      assertError(await apiKeysCall(h, forged, 'GET', '/api_keys'), 401, 'authentication_invalid');
      assertError(await apiKeysCall(h, 'not.a.jwt', 'GET', '/api_keys'), 401, 'authentication_invalid');
      // Another instance's token: the Backend API's secret key is no session token either.
      assertError(
        await apiKeysCall(h, h.identity.secretKey, 'GET', '/api_keys'),
        401,
        'authentication_invalid',
      );
      // Expired: a minute and more later.
      h.clock.advance(120);
      assertError(
        await apiKeysCall(h, jwt, 'POST', '/api_keys', { name: 'late', subject: owner.userId }),
        401,
        'authentication_invalid',
      );
      // Ended: its token is refused at once, not at its expiry.
      const leaver = await newMember(h, 'leaver');
      const stillValid = await sessionJwt(leaver);
      ok(await leaver.browser.post(`/client/sessions/${leaver.sessionId}/end`));
      assertError(await apiKeysCall(h, stillValid, 'GET', '/api_keys'), 401, 'authentication_invalid');
      assert.deepEqual(await keyRows(), before, 'nothing changed');
    });

    it('with API keys off, the list is empty and nothing else is served', async () => {
      const mine = apiKeysOf(h, owner);
      const key = ok(await mine.create({ name: 'while on', subject: owner.userId })).response;
      const { secret } = ok(await mine.secret(key.id));
      const settings = h.identity.settings.settings;
      await h.identity.settings.set({ ...settings, apiKeys: { ...ALL_ON, enabled: false } });
      try {
        assert.deepEqual(ok(await mine.list(owner.userId)).api_keys, []);
        assertError(await mine.create({ name: 'x', subject: owner.userId }), 403, 'feature_not_enabled');
        assertError(await mine.secret(key.id), 404, 'resource_not_found');
        await rejectsWith(clerk.apiKeys.verifySecret(secret), 404, 'resource_not_found');
        // User keys off alone.
        await h.identity.settings.set({ ...settings, apiKeys: { ...ALL_ON, userKeys: false } });
        assertError(await mine.create({ name: 'x', subject: owner.userId }), 403, 'feature_not_enabled');
      } finally {
        await h.identity.settings.set(settings);
      }
      ok(await mine.revoke(key.id));
    });

    it('unknown paths and methods', async () => {
      const jwt = await sessionJwt(owner);
      assertError(await apiKeysCall(h, jwt, 'GET', '/api_keys/ak_x'), 404, 'resource_not_found');
      assertError(
        await apiKeysCall(h, jwt, 'GET', '/api_keys/ak_x/revoke'),
        405,
        'request_method_not_allowed',
      );
      const malformed = await h.app.inject({
        method: 'POST',
        url: '/__clerk//api_keys',
        headers: {
          origin: 'http://localhost:3000',
          'content-type': 'application/json',
          authorization: `Bearer ${jwt}`,
        },
        payload: '{"name":',
      });
      assert.equal(malformed.statusCode, 400);
      assert.equal(malformed.json().errors[0].code, 'request_body_invalid');
      const before = await keyRows();
      const raw = (payload: string, type = 'application/json') =>
        h.app.inject({
          method: 'POST',
          url: '/__clerk//api_keys',
          headers: { origin: 'http://localhost:3000', 'content-type': type, authorization: `Bearer ${jwt}` },
          payload,
        });
      for (const payload of ['[]', '42', 'null', `{"name":${'['.repeat(5000)}`, `{"name":"a\u0000b"}`]) {
        const res = await raw(payload);
        assert.ok([400, 422].includes(res.statusCode), `${payload.slice(0, 20)}: ${res.statusCode}`);
      }
      const huge = await raw(JSON.stringify({ name: 'x'.repeat(2_000_000) }));
      assert.equal(huge.statusCode, 413);
      const multipart = await raw('--x\r\n\r\n--x--', 'multipart/form-data; boundary=x');
      assert.ok(multipart.statusCode >= 400 && multipart.statusCode < 500);
      // A repeated subject names nobody.
      const repeated = await apiKeysCall(h, jwt, 'GET', '/api_keys', undefined, {});
      assert.equal(repeated.status, 200);
      const twice = await h.app.inject({
        method: 'GET',
        url: `/__clerk//api_keys?subject=${owner.userId}&subject=${other.userId}`,
        headers: { authorization: `Bearer ${jwt}` },
      });
      assert.deepEqual(twice.json(), { api_keys: [] });
      assert.deepEqual(await keyRows(), before, 'nothing changed');
    });
  });

  describe("an organisation's keys", () => {
    it('admins create, list, reveal and revoke; a vCISO too; a member sees none and may do nothing', async () => {
      const asAdmin = apiKeysOf(h, admin);
      const key = ok(
        await asAdmin.create({ name: 'org key', subject: org.id, seconds_until_expiration: 30 * DAY }),
      ).response;
      assert.equal(key.subject, org.id);
      assert.equal(key.created_by, admin.userId);
      const asReader = apiKeysOf(h, reader);
      assert.deepEqual(
        ok(await asReader.list(org.id)).api_keys.map((k: Json) => k.id),
        [key.id],
      );
      const { secret } = ok(await asReader.secret(key.id));
      assert.equal(ok(await asAdmin.secret(key.id)).secret, secret);

      const before = await keyRows();
      const asMember = apiKeysOf(h, plain);
      assert.deepEqual(ok(await asMember.list(org.id)).api_keys, [], 'always 200, empty');
      assertError(await asMember.secret(key.id), 404, 'resource_not_found');
      assertError(await asMember.revoke(key.id), 404, 'resource_not_found');
      assertError(await asMember.create({ name: 'mine now', subject: org.id }), 403, 'not_allowed_access');
      // Someone outside the organisation.
      const outsider = apiKeysOf(h, other);
      assert.deepEqual(ok(await outsider.list(org.id)).api_keys, []);
      assertError(await outsider.secret(key.id), 404, 'resource_not_found');
      assertError(await outsider.revoke(key.id), 404, 'resource_not_found');
      assertError(await outsider.create({ name: 'x', subject: org.id }), 404, 'resource_not_found');
      // Nor by naming a subject that is no organisation or user at all.
      assert.deepEqual(ok(await outsider.list('org_doesnotexist')).api_keys, []);
      assert.deepEqual(ok(await outsider.list('nonsense')).api_keys, []);
      assert.deepEqual(await keyRows(), before, 'nothing changed');

      // The organisation's key is not in the admin's own list, nor theirs in the organisation's.
      assert.deepEqual(ok(await asAdmin.list(admin.userId)).api_keys, []);
      ok(await asReader.revoke(key.id));
      assert.deepEqual(ok(await asAdmin.list(org.id)).api_keys, []);
    });

    it("a member removed from the organisation loses its keys' view at once", async () => {
      const asAdmin = apiKeysOf(h, admin);
      const key = ok(await asAdmin.create({ name: 'before removal', subject: org.id })).response;
      const leaving = await newMember(h, 'leaving');
      await addMember(admin, org.id, leaving, 'org:admin');
      assert.equal(ok(await apiKeysOf(h, leaving).list(org.id)).api_keys.length, 1);
      ok(await admin.browser.delete(`/organizations/${org.id}/memberships/${leaving.userId}`));
      assert.deepEqual(ok(await apiKeysOf(h, leaving).list(org.id)).api_keys, []);
      assertError(await apiKeysOf(h, leaving).secret(key.id), 404, 'resource_not_found');
      ok(await asAdmin.revoke(key.id));
    });
  });

  describe('the Backend API (@clerk/backend 2.10.1)', () => {
    it('create answers the secret; getSecret, verifySecret, revoke', async () => {
      const created = await clerk.apiKeys.create({
        name: 'server',
        subject: org.id,
        description: 'made by the operator',
        scopes: ['read:reports'],
        claims: { tier: 'gold' },
        createdBy: admin.userId,
        secondsUntilExpiration: 3600,
      });
      assert.match(created.id, /^ak_/);
      assert.match(created.secret!, /^ak_/);
      assert.deepEqual(created.scopes, ['read:reports']);
      assert.deepEqual(created.claims, { tier: 'gold' });
      assert.equal(created.createdBy, admin.userId);
      assert.equal((await clerk.apiKeys.getSecret(created.id)).secret, created.secret);
      const verified = await clerk.apiKeys.verifySecret(created.secret!);
      assert.equal(verified.id, created.id);
      assert.equal(verified.subject, org.id);
      assert.deepEqual(verified.scopes, ['read:reports']);
      assert.ok(verified.lastUsedAt, 'last_used_at recorded');
      const revoked = await clerk.apiKeys.revoke({ apiKeyId: created.id, revocationReason: 'done' });
      assert.equal(revoked.revoked, true);
      assert.equal(revoked.revocationReason, 'done');
      // Revoking again changes nothing.
      assert.equal((await clerk.apiKeys.revoke({ apiKeyId: created.id })).revocationReason, 'done');
      await rejectsWith(clerk.apiKeys.verifySecret(created.secret!), 404, 'resource_not_found');
    });

    it('an expired key is refused at once; unknown secrets and ids are 404', async () => {
      const created = await clerk.apiKeys.create({
        name: 'short',
        subject: owner.userId,
        secondsUntilExpiration: 5,
      });
      await clerk.apiKeys.verifySecret(created.secret!);
      h.clock.advance(6);
      await rejectsWith(clerk.apiKeys.verifySecret(created.secret!), 404, 'resource_not_found');
      const listed = ok(await apiKeysOf(h, owner).list(owner.userId)).api_keys.find(
        (k: Json) => k.id === created.id,
      );
      assert.equal(listed.expired, true);
      await rejectsWith(clerk.apiKeys.verifySecret(`ak_${'x'.repeat(48)}`), 404, 'resource_not_found');
      await rejectsWith(clerk.apiKeys.verifySecret('sk_live_notakey'), 404, 'resource_not_found');
      await rejectsWith(clerk.apiKeys.getSecret('ak_doesnotexist'), 404, 'resource_not_found');
      await rejectsWith(clerk.apiKeys.revoke({ apiKeyId: 'ak_doesnotexist' }), 404, 'resource_not_found');
      await rejectsWith(
        clerk.apiKeys.create({ name: 'x', subject: 'user_doesnotexist' }),
        404,
        'resource_not_found',
      );
      await rejectsWith(
        clerk.apiKeys.create({ name: 'x', subject: owner.userId, secondsUntilExpiration: -1 }),
        422,
        'form_param_value_invalid',
      );
      await clerk.apiKeys.revoke({ apiKeyId: created.id });
    });

    it('lists a subject’s keys newest first, valid ones or every one, by page (apiKeys.list of later SDKs)', async () => {
      const lister = await newMember(h, 'lister');
      const made = [];
      for (const name of ['first', 'second', 'third']) {
        made.push(await clerk.apiKeys.create({ name, subject: lister.userId, secondsUntilExpiration: 60 }));
        h.clock.advance(1);
      }
      await clerk.apiKeys.revoke({ apiKeyId: made[1]!.id });
      const list = async (query: string) => {
        const res = await h.bapi(`/api_keys?${query}`);
        return { status: res.statusCode, body: res.json() as Json };
      };
      const valid = await list(`subject=${lister.userId}`);
      assert.equal(valid.status, 200, JSON.stringify(valid.body));
      assert.deepEqual(
        valid.body.data.map((k: Json) => k.name),
        ['third', 'first'],
      );
      assert.equal(valid.body.total_count, 2);
      assert.equal(valid.body.data[0].secret, undefined, 'a list never shows a secret');
      const all = await list(`subject=${lister.userId}&include_invalid=true&limit=2&offset=1`);
      assert.deepEqual(
        all.body.data.map((k: Json) => k.name),
        ['second', 'first'],
      );
      assert.equal(all.body.total_count, 3);
      h.clock.advance(120);
      assert.equal((await list(`subject=${lister.userId}`)).body.total_count, 0, 'expired keys are invalid');
      assert.deepEqual((await list(`subject=${org.id}&include_invalid=true`)).status, 200);
      assert.deepEqual((await list('subject=user_doesnotexist')).body, { data: [], total_count: 0 });
      assert.equal((await list('')).status, 422, 'the subject is required');
      assert.equal((await list('subject=sess_123')).status, 422);
      assert.equal((await list(`subject=${lister.userId}&include_invalid=maybe`)).status, 422);
    });

    it('last_used_at moves at most once a minute', async () => {
      const created = await clerk.apiKeys.create({ name: 'busy', subject: owner.userId });
      const lastUsed = async () =>
        (
          await h.db.query<{ last_used_at: Date | null }>('SELECT last_used_at FROM api_keys WHERE id = $1', [
            created.id,
          ])
        )[0]!.last_used_at?.getTime() ?? null;
      assert.equal(await lastUsed(), null);
      await clerk.apiKeys.verifySecret(created.secret!);
      const first = await lastUsed();
      assert.ok(first);
      h.clock.advance(30);
      await clerk.apiKeys.verifySecret(created.secret!);
      assert.equal(await lastUsed(), first, 'not written again within the minute');
      h.clock.advance(31);
      await clerk.apiKeys.verifySecret(created.secret!);
      assert.ok((await lastUsed())! > first!, 'written again after it');
      await clerk.apiKeys.revoke({ apiKeyId: created.id });
    });

    it("an organisation's deletion takes its keys with it", async () => {
      const founder = await newMember(h, 'founder');
      const doomed = await createOrganization(founder, 'Doomed');
      const created = await clerk.apiKeys.create({ name: 'gone', subject: doomed.id });
      ok(await founder.browser.delete(`/organizations/${doomed.id}`));
      await rejectsWith(clerk.apiKeys.verifySecret(created.secret!), 404, 'resource_not_found');
      assert.equal(await h.count('api_keys', 'id = $1', [created.id]), 0);
    });
  });
});
