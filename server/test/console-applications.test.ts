import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_ROUTES } from '../src/console/console-api.ts';
import { BAPI_PATH } from '../src/app.ts';
import { startConsoleWorld, token, type ConsoleWorld } from './support/console-world.ts';
import { TEST_BACKENDS, type ApiBody } from './support/embedded-server.ts';

/**
 * The console's applications area (docs/console.md) against the real server and its embedded provider: API
 * keys listed by subject and revoked, OAuth applications created (their secret shown once), rotated and
 * deleted, machines created with their M2M scopes and deleted; each change in the audit log as the
 * operator's; no one else changing anything; malformed input refused before any Backend API call.
 */
const APPLICATION_ROUTES = CONSOLE_ROUTES.filter((r) => r.path.startsWith('/applications/'));

/** A well-formed body for each POST of the area: a refusal then shows the caller, not the input, was refused. */
function validBody(path: string): unknown {
  if (path === '/applications/oauth')
    return { name: 'Refused', redirect_uris: ['https://refused.example/cb'], public: false, scopes: [] };
  if (path === '/applications/machines') return { name: 'refused' };
  return {};
}

for (const backend of TEST_BACKENDS) {
  describe(`console applications area [${backend.name}]`, () => {
    let world: ConsoleWorld;

    /** A Backend API call with the secret key, as a script would make it (to set the scene). */
    const bapi = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const res = await world.server.app.fastify.inject({
        method,
        url: `${BAPI_PATH}${path}`,
        headers: { authorization: `Bearer ${world.server.app.identity!.secretKey}` },
        ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as ApiBody;
    };

    before(async () => {
      world = await startConsoleWorld({
        databaseUrl: backend.databaseUrl,
        enrollingBy: 'email',
        settings: { apiKeys: { enabled: true, userKeys: true, organizationKeys: true } },
      });
    });
    after(() => world.server.stop());

    /** The operator's audit events of `action` (on `objectId`), newest first. */
    const operatorEvents = async (action: string, objectId?: string): Promise<ApiBody[]> => {
      const res = await world.get(
        world.operator,
        `/console/api/audit-events?actor_type=operator&actor_id=${world.operator.userId}&action=${action}${
          objectId ? `&object_id=${objectId}` : ''
        }`,
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data;
    };

    it('lists a user’s or an organisation’s API keys and revokes one, as the operator’s', async () => {
      const bearer = await token(world.operator);
      const first = await bapi('POST', '/api_keys', { name: 'first', subject: world.target.userId });
      const second = await bapi('POST', '/api_keys', { name: 'second', subject: world.target.userId });
      const orgKey = await bapi('POST', '/api_keys', {
        name: 'org key',
        subject: world.target.organizationId,
      });

      const listed = await world.get(
        world.operator,
        `/console/api/applications/api-keys?subject=${world.target.userId}`,
      );
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.deepEqual(
        listed.body.data.map((k: ApiBody) => k.id),
        [second.id, first.id],
        'newest first',
      );
      assert.equal(listed.body.total_count, 2);
      assert.ok(
        listed.body.data.every((k: ApiBody) => k.secret === undefined),
        'a list never shows a secret',
      );
      const paged = await world.get(
        world.operator,
        `/console/api/applications/api-keys?subject=${world.target.userId}&limit=1`,
      );
      assert.deepEqual(
        paged.body.data.map((k: ApiBody) => k.id),
        [second.id],
      );
      const ofOrg = await world.get(
        world.operator,
        `/console/api/applications/api-keys?subject=${world.target.organizationId}`,
      );
      assert.deepEqual(
        ofOrg.body.data.map((k: ApiBody) => k.id),
        [orgKey.id],
      );

      const revoked = await world.server.api(
        bearer,
        'POST',
        `/console/api/applications/api-keys/${first.id}/revoke`,
        { reason: 'leaked in a ticket' },
      );
      assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
      assert.equal(revoked.body.revoked, true);
      assert.equal(revoked.body.revocation_reason, 'leaked in a ticket');
      const [event] = await operatorEvents('api_key.revoke', first.id);
      assert.ok(event, 'the revocation is in the audit log as the operator’s');
      assert.deepEqual(event.actor, { type: 'operator', id: world.operator.userId });
      const valid = await world.get(
        world.operator,
        `/console/api/applications/api-keys?subject=${world.target.userId}`,
      );
      assert.deepEqual(
        valid.body.data.map((k: ApiBody) => k.id),
        [second.id],
      );
      const all = await world.get(
        world.operator,
        `/console/api/applications/api-keys?subject=${world.target.userId}&include_invalid=true`,
      );
      assert.equal(all.body.total_count, 2);
      // The key is refused where it is presented.
      const verify = await world.server.app.fastify.inject({
        method: 'POST',
        url: `${BAPI_PATH}/api_keys/verify`,
        headers: { authorization: `Bearer ${world.server.app.identity!.secretKey}` },
        payload: { secret: first.secret },
      });
      assert.equal(verify.statusCode, 404);
      for (const key of [second, orgKey]) await bapi('POST', `/api_keys/${key.id}/revoke`, {});
    });

    it('creates an OAuth application showing its secret once, rotates it and deletes it, as the operator’s', async () => {
      const bearer = await token(world.operator);
      const created = await world.server.api(bearer, 'POST', '/console/api/applications/oauth', {
        name: 'Reporting tool',
        redirect_uris: ['https://reports.example/callback', 'http://localhost:8080/cb'],
        public: false,
        scopes: ['openid', 'email'],
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.match(created.body.id, /^oa_/);
      assert.equal(created.body.scopes, 'openid email');
      assert.deepEqual(created.body.redirect_uris, [
        'https://reports.example/callback',
        'http://localhost:8080/cb',
      ]);
      assert.ok(created.body.client_secret, 'the secret, this once');
      const [event] = await operatorEvents('oauth_application.created');
      assert.equal(event.summary.after.name, 'Reporting tool', JSON.stringify(event));
      assert.ok(!JSON.stringify(event).includes(created.body.client_secret), 'no secret in the log');

      const listed = await world.get(world.operator, '/console/api/applications/oauth');
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      const row = listed.body.data.find((a: ApiBody) => a.id === created.body.id);
      assert.equal(row.name, 'Reporting tool');
      assert.equal(row.client_secret, undefined, 'never listed');

      const rotated = await world.server.api(
        bearer,
        'POST',
        `/console/api/applications/oauth/${created.body.id}/rotate-secret`,
      );
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      assert.ok(rotated.body.client_secret);
      assert.notEqual(rotated.body.client_secret, created.body.client_secret);
      assert.equal((await operatorEvents('oauth_application.rotate_secret', created.body.id)).length, 1);

      const publicApp = await world.server.api(bearer, 'POST', '/console/api/applications/oauth', {
        name: 'Mobile app',
        redirect_uris: ['com.example.app:/callback'],
        public: true,
        scopes: [],
      });
      assert.equal(publicApp.status, 200, JSON.stringify(publicApp.body));
      assert.equal(publicApp.body.public, true);
      assert.equal(publicApp.body.client_secret, undefined, 'a public application has no secret');
      const noSecret = await world.server.api(
        bearer,
        'POST',
        `/console/api/applications/oauth/${publicApp.body.id}/rotate-secret`,
      );
      assert.equal(noSecret.status, 422, JSON.stringify(noSecret.body));
      assert.equal(noSecret.body.errors[0].code, 'change_refused');

      for (const app of [created.body, publicApp.body]) {
        const deleted = await world.server.api(bearer, 'DELETE', `/console/api/applications/oauth/${app.id}`);
        assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
        assert.equal(deleted.body.deleted, true);
        assert.equal((await operatorEvents('oauth_application.deleted', app.id)).length, 1);
      }
      const after = await world.get(world.operator, '/console/api/applications/oauth');
      assert.ok(!after.body.data.some((a: ApiBody) => a.id === created.body.id));
      const again = await world.server.api(
        bearer,
        'DELETE',
        `/console/api/applications/oauth/${created.body.id}`,
      );
      assert.equal(again.status, 404, JSON.stringify(again.body));
      assert.equal(again.body.errors[0].code, 'resource_not_found');
    });

    it('creates machines with their M2M scopes, lists and deletes them, as the operator’s', async () => {
      const bearer = await token(world.operator);
      const api = await world.server.api(bearer, 'POST', '/console/api/applications/machines', {
        name: 'billing-api',
      });
      assert.equal(api.status, 200, JSON.stringify(api.body));
      assert.match(api.body.id, /^mch_/);
      assert.ok(api.body.secret_key, 'its secret key, this once');
      const worker = await world.server.api(bearer, 'POST', '/console/api/applications/machines', {
        name: 'billing-worker',
        default_token_ttl: 600,
        scoped_machines: [api.body.id],
      });
      assert.equal(worker.status, 200, JSON.stringify(worker.body));
      assert.equal(worker.body.default_token_ttl, 600);
      const [event] = await operatorEvents('machine.created');
      assert.equal(event.summary.after.name, 'billing-worker', JSON.stringify(event));
      assert.ok(!JSON.stringify(event).includes(worker.body.secret_key), 'no secret in the log');

      const listed = await world.get(world.operator, '/console/api/applications/machines?query=billing');
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.equal(listed.body.total_count, 2);
      const row = listed.body.data.find((m: ApiBody) => m.id === worker.body.id);
      assert.deepEqual(
        row.scoped_machines.map((m: ApiBody) => m.id),
        [api.body.id],
        'the machines it may call',
      );
      assert.ok(
        listed.body.data.every((m: ApiBody) => m.secret_key === undefined),
        'never listed',
      );

      for (const machine of [worker.body, api.body]) {
        const deleted = await world.server.api(
          bearer,
          'DELETE',
          `/console/api/applications/machines/${machine.id}`,
        );
        assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
        assert.equal((await operatorEvents('machine.deleted', machine.id)).length, 1);
      }
      assert.equal(
        (await world.get(world.operator, '/console/api/applications/machines')).body.total_count,
        0,
      );
    });

    it('lets no one else change anything, and refuses malformed input and unknown ids before any change', async () => {
      const bearer = await token(world.operator);
      const key = await bapi('POST', '/api_keys', { name: 'untouched', subject: world.target.userId });
      const app = await bapi('POST', '/v1/oauth_applications', {
        name: 'Untouched',
        redirect_uris: ['https://untouched.example/cb'],
      });
      const machine = await bapi('POST', '/v1/machines', { name: 'untouched' });
      /** What the area holds and what the log says was done: neither may move below. */
      const state = async () => {
        const read = async (url: string) => {
          const res = await world.get(world.operator, url);
          assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
          return res.body;
        };
        const [keys, apps, machines, audit] = await Promise.all([
          read(
            `/console/api/applications/api-keys?subject=${world.target.userId}&include_invalid=true&limit=100`,
          ),
          read('/console/api/applications/oauth?limit=100'),
          read('/console/api/applications/machines?limit=100'),
          read('/console/api/audit-events?limit=100'),
        ]);
        return JSON.stringify({
          keys: keys.data.map((k: ApiBody) => [k.id, k.revoked, k.updated_at]),
          apps: apps.data.map((a: ApiBody) => [a.id, a.updated_at]),
          machines: machines.data.map((m: ApiBody) => [m.id, m.updated_at]),
          audit: audit.total_count,
        });
      };
      const before = await state();

      const real = APPLICATION_ROUTES.map((route) => ({
        method: route.method,
        url: `/console/api${route.path
          .replace(':apiKeyId', key.id)
          .replace(':applicationId', app.id)
          .replace(
            ':machineId',
            machine.id,
          )}${route.method === 'GET' ? `?subject=${world.target.userId}` : ''}`,
        body: route.method === 'POST' ? validBody(route.path) : undefined,
      }));
      assert.equal(real.length, 9, 'every route of the area');
      for (const r of real) {
        for (const [who, bearerOf, code] of [
          [
            'an organisation admin',
            await token(world.orgAdmin, world.orgAdmin.organizationId),
            'not_an_operator',
          ],
          ['the keys’ own user', await token(world.target, world.target.organizationId), 'not_an_operator'],
          ['an operator without a second factor', await token(world.enrolling), 'second_factor_required'],
        ] as const) {
          const res = await world.server.api(bearerOf, r.method, r.url, r.body);
          assert.equal(res.status, 403, `${who}: ${r.method} ${r.url}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.errors[0].code, code);
        }
      }
      assert.equal(await state(), before, 'nothing changed, nothing recorded');

      const oauth = (fields: Record<string, unknown>) => ({
        name: 'Bad',
        redirect_uris: ['https://bad.example/cb'],
        public: false,
        scopes: [],
        ...fields,
      });
      await world.refusesAsMalformed(bearer, [
        ['GET', '/console/api/applications/api-keys'],
        ['GET', '/console/api/applications/api-keys?subject=sess_123'],
        ['GET', `/console/api/applications/api-keys?subject=${world.target.userId}&include_invalid=yes`],
        ['GET', `/console/api/applications/api-keys?subject=${world.target.userId}&limit=101`],
        ['GET', '/console/api/applications/oauth?offset=-1'],
        ['GET', `/console/api/applications/machines?query=${'a'.repeat(201)}`],
        ['POST', `/console/api/applications/api-keys/${app.id}/revoke`, {}],
        ['POST', '/console/api/applications/api-keys/ak_%2e%2e/revoke', {}],
        ['POST', `/console/api/applications/api-keys/${key.id}/revoke`, { reason: 'a\nb' }],
        ['POST', `/console/api/applications/api-keys/${key.id}/revoke`, { reason: 'x'.repeat(501) }],
        ['POST', `/console/api/applications/api-keys/${key.id}/revoke`, { revocation_reason: 'x' }],
        ['POST', `/console/api/applications/oauth/${machine.id}/rotate-secret`],
        ['DELETE', `/console/api/applications/oauth/${key.id}`],
        ['DELETE', '/console/api/applications/machines/not-a-machine'],
        ['POST', '/console/api/applications/oauth', {}],
        ['POST', '/console/api/applications/oauth', oauth({ name: '' })],
        ['POST', '/console/api/applications/oauth', oauth({ name: 'x'.repeat(257) })],
        ['POST', '/console/api/applications/oauth', oauth({ redirect_uris: [] })],
        ['POST', '/console/api/applications/oauth', oauth({ redirect_uris: ['not a uri'] })],
        ['POST', '/console/api/applications/oauth', oauth({ redirect_uris: 'https://bad.example/cb' })],
        ['POST', '/console/api/applications/oauth', oauth({ public: 'yes' })],
        ['POST', '/console/api/applications/oauth', oauth({ scopes: 'openid email' })],
        ['POST', '/console/api/applications/oauth', oauth({ scopes: ['Open ID'] })],
        ['POST', '/console/api/applications/oauth', oauth({ consent_screen_enabled: false })],
        ['POST', '/console/api/applications/oauth', [oauth({})]],
        ['POST', '/console/api/applications/machines', {}],
        ['POST', '/console/api/applications/machines', { name: 'a\u0000b' }],
        ['POST', '/console/api/applications/machines', { name: 'm', default_token_ttl: 0 }],
        ['POST', '/console/api/applications/machines', { name: 'm', default_token_ttl: 1.5 }],
        ['POST', '/console/api/applications/machines', { name: 'm', scoped_machines: [key.id] }],
        ['POST', '/console/api/applications/machines', { name: 'm', secret_key: 'ak_x' }],
      ]);
      // Well formed, refused by the Backend API: its message kept, nothing stored.
      for (const body of [
        oauth({ scopes: ['openid', 'admin_everything'] }),
        oauth({ redirect_uris: ['http://reports.example/cb'] }),
      ]) {
        const res = await world.server.api(bearer, 'POST', '/console/api/applications/oauth', body);
        assert.equal(res.status, 422, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, 'change_refused');
        assert.ok(res.body.errors[0].message, 'the Backend API’s reason is kept');
      }
      for (const [method, url, body] of [
        ['POST', '/console/api/applications/api-keys/ak_0000000000000000000000000000/revoke', {}],
        ['POST', '/console/api/applications/oauth/oa_0000000000000000000000000000/rotate-secret', undefined],
        ['DELETE', '/console/api/applications/oauth/oa_0000000000000000000000000000', undefined],
        ['DELETE', '/console/api/applications/machines/mch_0000000000000000000000000000', undefined],
        ['POST', '/console/api/applications/machines', { name: 'm', scoped_machines: ['mch_000000000000'] }],
      ] as const) {
        const res = await world.server.api(bearer, method, url, body);
        assert.equal(res.status, 404, `${method} ${url}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, 'resource_not_found');
      }
      assert.equal(await state(), before, 'nothing changed, nothing recorded');
    });
  });
}
