import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { addressKey, API_KEY_FAILURE_LIMIT } from '../src/auth/api-key-failures.ts';
import { DatabaseFaults } from './support/database-faults.ts';
import {
  signUpUser,
  startEmbeddedServer,
  type EmbeddedServer,
  TEST_BACKENDS,
} from './support/embedded-server.ts';
import { backendApi } from './support/product-api-world.ts';

/**
 * Failed API keys on the product API (issue #27, item 6), against the real embedded provider: a key that
 * cannot be one is refused without asking the Backend API, and past 30 failures in 10 minutes from one
 * address every key from it is `429` with `Retry-After`, counted in the product database, until the
 * window ends. The Backend API's verification calls are counted as they arrive at the provider.
 */
const { limit, windowSeconds } = API_KEY_FAILURE_LIMIT;
const CURRENT = '/api/organizations/current';
const BASE62 = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A well-formed key that names nothing: the Backend API must be asked to know. */
const wrongKey = () =>
  `ak_${Array.from({ length: 48 }, () => BASE62[Math.floor(Math.random() * 62)]).join('')}`;

/** Bearer tokens routed to the key path (`Bearer ak_`) that no key of the provider can be. */
const MALFORMED = [
  'ak_',
  `ak_${'a'.repeat(47)}`,
  `ak_${'a'.repeat(49)}`,
  `ak_${'a'.repeat(47)}-`,
  `ak_${'a'.repeat(47)}é`,
  `ak_${'a'.repeat(5000)}`,
  `ak_${'a'.repeat(48)} x`,
];

test('an address is counted by itself, IPv6 by its /64', () => {
  assert.equal(addressKey('203.0.113.9'), '203.0.113.9');
  assert.equal(addressKey('::ffff:203.0.113.9'), '203.0.113.9');
  assert.equal(addressKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.equal(addressKey('2001:db8:1:2::9'), '2001:db8:1:2::/64');
  assert.equal(addressKey('2001:0DB8:0001:0002:ffff::1'), '2001:db8:1:2::/64');
  assert.equal(addressKey('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(addressKey('::1'), '0:0:0:0::/64');
});

for (const backend of TEST_BACKENDS) {
  describe(`failed API keys on the product API [${backend.name}]`, () => {
    let server: EmbeddedServer;
    let clerk: ClerkClient;
    let goodKey: string;
    let now = Date.now();
    let verifications = 0;
    const faults = new DatabaseFaults();
    let address = 0;
    /** A fresh client address per test, so each starts with no failures. */
    let ip = '';
    beforeEach(() => {
      ip = `198.51.100.${++address}`;
    });

    before(async () => {
      server = await startEmbeddedServer({
        databaseUrl: backend.databaseUrl,
        wrapDatabase: faults.wrap,
        app: { clock: () => new Date(now) },
        beforeListen: (app) =>
          app.fastify.addHook('onRequest', async (req) => {
            if (req.url.split('?')[0]!.endsWith('/api_keys/verify')) verifications++;
          }),
      });
      clerk = backendApi(server);
      const admin = await signUpUser(server, 'keys-admin');
      const created = await admin.browser.call('POST', '/organizations', { name: 'Acme Security' });
      assert.equal(created.status, 200, JSON.stringify(created.body?.errors));
      goodKey = (await clerk.apiKeys.create({ name: 'ci', subject: created.body.response.id })).secret!;
    });
    after(() => server?.stop());

    const call = async (key: string, from = ip) => {
      const res = await server.app.fastify.inject({
        method: 'GET',
        url: CURRENT,
        headers: { authorization: `Bearer ${key}` },
        remoteAddress: from,
      });
      return { status: res.statusCode, headers: res.headers, body: res.json() };
    };

    test('a token that cannot be a key is refused without asking the Backend API', async () => {
      const before = verifications;
      for (const key of MALFORMED) {
        const res = await call(key);
        assert.equal(res.status, 401, `${key.slice(0, 60)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, 'unauthenticated');
      }
      assert.equal(verifications, before, 'no verification call for a malformed key');
      // A well-formed one is asked about (and the good key still verifies).
      assert.equal((await call(wrongKey())).status, 401);
      assert.equal(verifications, before + 1);
      assert.equal((await call(goodKey)).status, 200);
    });

    test(`hundreds of wrong keys from one address: ${limit} answered 401, then 429 with Retry-After and no verification`, async () => {
      const before = verifications;
      const statuses: number[] = [];
      let lastRefusal: Awaited<ReturnType<typeof call>> | null = null;
      for (let i = 0; i < 200; i++) {
        const res = await call(i % 10 === 0 ? MALFORMED[1]! : wrongKey());
        statuses.push(res.status);
        if (res.status === 429) lastRefusal = res;
      }
      assert.deepEqual(statuses.slice(0, limit), Array(limit).fill(401));
      assert.deepEqual(statuses.slice(limit), Array(200 - limit).fill(429));
      // Malformed ones count as failures too, but only the well-formed ones were ever sent on.
      assert.equal(verifications - before, Math.ceil(limit * 0.9));
      assert.ok(lastRefusal);
      assert.equal(lastRefusal.body.errors[0].code, 'too_many_requests');
      const retryAfter = Number(lastRefusal.headers['retry-after']);
      assert.ok(retryAfter > 0 && retryAfter <= windowSeconds, `Retry-After ${retryAfter}`);

      // The good key from that address waits too, unverified; from another address it works.
      const atLimit = verifications;
      const blocked = await call(goodKey);
      assert.equal(blocked.status, 429);
      assert.equal(verifications, atLimit);
      assert.equal((await call(goodKey, '192.0.2.200')).status, 200);

      // Counted in the product database: the window ends for everyone at once, then keys are verified again.
      now += (retryAfter - 1) * 1000;
      assert.equal((await call(goodKey)).status, 429);
      now += 1000;
      assert.equal((await call(goodKey)).status, 200);
      assert.equal((await call(wrongKey())).status, 401, 'a new window starts from nothing');
    });

    test('successes count nothing, and failures below the limit leave the address alone', async () => {
      for (let i = 0; i < limit - 1; i++) assert.equal((await call(wrongKey())).status, 401);
      for (let i = 0; i < 5; i++) assert.equal((await call(goodKey)).status, 200);
      assert.equal((await call(wrongKey())).status, 401, `the ${limit}th failure is still a 401`);
      assert.equal((await call(goodKey)).status, 429);
    });

    test('a Backend API outage is no failure of the key: 503, not counted', async () => {
      for (let i = 0; i < limit; i++) {
        faults.failNext((sql) => sql.includes('FROM api_keys WHERE secret_hash'));
        const res = await call(goodKey);
        assert.equal(res.status, 503, JSON.stringify(res.body));
        assert.equal(res.body.errors[0].code, 'service_unavailable');
      }
      faults.clear();
      assert.equal((await call(goodKey)).status, 200);
    });

    test('an IPv6 client is counted by its /64', async () => {
      const prefix = `2001:db8:${address}:1`;
      for (let i = 0; i < limit; i++) {
        assert.equal((await call(wrongKey(), `${prefix}::${(i + 1).toString(16)}`)).status, 401);
      }
      assert.equal((await call(goodKey, `${prefix}::ffff`)).status, 429);
      assert.equal((await call(goodKey, `2001:db8:${address}:2::1`)).status, 200);
    });
  });
}
