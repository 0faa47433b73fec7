import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLERK_JS_PREFIX } from '../src/static/clerk-js.ts';
import {
  sessionToken,
  signUpUser,
  startEmbeddedServer,
  type EmbeddedServer,
  TEST_BACKENDS,
} from './support/embedded-server.ts';

/**
 * Names every plain JavaScript object answers to (issue #27, item 5), sent wherever a request to the
 * product server names something: the product API's path parameters and the keys and values of its
 * bodies, the static files, clerk-js's files, and the identity provider's routes the server mounts.
 * Each answer is a refusal (or the page), never a 5xx.
 */
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

for (const backend of TEST_BACKENDS) {
  describe(`names of Object.prototype on the product server [${backend.name}]`, () => {
    let server: EmbeddedServer;
    let token: () => Promise<string>;

    before(async () => {
      server = await startEmbeddedServer({ databaseUrl: backend.databaseUrl });
      const admin = await signUpUser(server, 'proto-admin');
      const vciso = await signUpUser(server, 'proto-vciso');
      const created = await admin.browser.call('POST', '/organizations', { name: 'Prototype firm' });
      assert.equal(created.status, 200, JSON.stringify(created.body?.errors));
      const orgId: string = created.body.response.id;
      const added = await admin.browser.call('POST', `/organizations/${orgId}/memberships`, {
        user_id: vciso.userId,
        role: 'org:vciso',
      });
      assert.equal(added.status, 200, JSON.stringify(added.body?.errors));
      const enabled = await server.api(
        await sessionToken(admin, orgId),
        'PATCH',
        '/api/organizations/current/settings',
        { modules: { vCiso: true } },
      );
      assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
      token = () => sessionToken(vciso, orgId);
    });
    after(() => server?.stop());

    it('the product API: in path parameters, body keys and values, a refusal in the product’s shape', async () => {
      const failures: string[] = [];
      const bearer = await token();
      for (const name of PROTOTYPE_NAMES) {
        const requests: [method: 'GET' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: string][] = [
          ['PUT', `/api/organizations/current/children/${name}`],
          ['DELETE', `/api/organizations/current/children/${name}`],
          ['GET', `/api/${name}`],
          ['GET', `/api/organizations/${name}`],
          ['PATCH', '/api/organizations/current/settings', `{"modules":{"${name}":true}}`],
          ['PATCH', '/api/organizations/current/settings', `{"${name}":{"vCiso":true}}`],
          ['PATCH', '/api/organizations/current/settings', `{"language":"${name}"}`],
        ];
        for (const [method, url, body] of requests) {
          const res = await server.app.fastify.inject({
            method,
            url,
            headers: {
              authorization: `Bearer ${bearer}`,
              ...(body ? { 'content-type': 'application/json' } : {}),
            },
            payload: body,
          });
          const answer = `${method} ${url} ${body ?? ''} → ${res.statusCode} ${res.body.slice(0, 200)}`;
          if (res.statusCode < 400 || res.statusCode >= 500) failures.push(answer);
          else if (typeof (res.json() as { errors?: { code?: unknown }[] }).errors?.[0]?.code !== 'string')
            failures.push(`not the product's error shape: ${answer}`);
        }
      }
      assert.deepEqual(failures, [], failures.join('\n'));
    });

    it('static files, clerk-js and the identity provider’s own routes: never a 5xx', async () => {
      const failures: string[] = [];
      for (const name of PROTOTYPE_NAMES) {
        for (const url of [
          `/${name}`,
          `/assets/${name}`,
          `/assets/i18n/${name}/${name}.md`,
          `${CLERK_JS_PREFIX}${name}`,
          `/__clerk/v1/social_logos/${name}.svg`,
          `/__clerk/v1/saml/metadata/${name}.xml`,
          `/__clerk/v1/${name}`,
        ]) {
          const res = await server.app.fastify.inject({ method: 'GET', url });
          if (res.statusCode >= 500)
            failures.push(`GET ${url} → ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
      assert.deepEqual(failures, [], failures.join('\n'));
    });
  });
}
