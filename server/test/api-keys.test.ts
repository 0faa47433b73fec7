import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { startEmbeddedServer, withoutTraceId, type EmbeddedServer } from './support/embedded-server.ts';
import {
  backendApi,
  namedUser,
  sessionToken,
  teamOrganization,
  type Organization,
  type Team,
} from './support/product-api-world.ts';

/**
 * The product API with API keys (docs/api-keys.md), against the real embedded provider: keys made by
 * its Backend API, verified by @clerk/backend's `authenticateRequest({acceptsToken: 'api_key'})` on
 * every call. An organisation's key reads what its route allows for its own organisation; revoked and
 * expired keys are refused at once; routes that need a person refuse keys before verifying them.
 */
describe('product API with API keys', () => {
  let server: EmbeddedServer;
  let clerk: ClerkClient;
  let team: Team;
  let acme: Organization;
  let other: Organization;

  before(async () => {
    server = await startEmbeddedServer();
    clerk = backendApi(server);
    team = {
      admin: await namedUser(server, 'admin', 'Ada', 'Lovelace'),
      vciso: await namedUser(server, 'vciso', 'Grace', 'Hopper'),
      member: await namedUser(server, 'member', 'Alan', null),
    };
    acme = await teamOrganization(server, team, 'Acme Security');
    other = await teamOrganization(server, team, 'Other Org');
  });
  after(() => server?.stop());

  const orgKey = async (organization: Organization, secondsUntilExpiration?: number) => {
    const key = await clerk.apiKeys.create({
      name: `key ${Math.random()}`,
      subject: organization.id,
      createdBy: team.admin.userId,
      ...(secondsUntilExpiration ? { secondsUntilExpiration } : {}),
    });
    assert.ok(key.secret?.startsWith('ak_'));
    return { id: key.id, secret: key.secret! };
  };

  test("an organisation's key reads its own organisation, and only it", async () => {
    const key = await orgKey(acme);
    const res = await server.api(key.secret, 'GET', '/api/organizations/current');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.id, acme.id);
    assert.equal(res.body.name, acme.name);
    // Another organisation's key reads that one: nothing in the request can name another.
    const otherKey = await orgKey(other);
    const theirs = await server.api(otherKey.secret, 'GET', '/api/organizations/current');
    assert.equal(theirs.body.id, other.id);
    const parent = await server.api(key.secret, 'GET', '/api/organizations/current/parent');
    assert.equal(parent.status, 200, JSON.stringify(parent.body));
    assert.deepEqual(parent.body, { parent: null });
  });

  test('routes that need a person refuse a key before verifying it (403), writes included', async () => {
    const key = await orgKey(acme);
    for (const [method, url, body] of [
      ['GET', '/api/me', undefined],
      ['PATCH', '/api/organizations/current/settings', { language: 'fr' }],
      ['GET', '/api/organizations/current/children', undefined],
      ['POST', '/api/organizations/current/children', { name: 'Child' }],
    ] as const) {
      const res = await server.api(key.secret, method, url, body);
      assert.equal(res.status, 403, `${method} ${url}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(withoutTraceId(res.body), {
        errors: [{ code: 'forbidden', message: 'This endpoint does not accept API keys.' }],
      });
    }
    // Unchanged by the refused write.
    const current = await server.api(key.secret, 'GET', '/api/organizations/current');
    assert.notEqual(current.body.publicMetadata?.language, 'fr');
  });

  test('a revoked key is refused at once; an unknown or malformed one too', async () => {
    const key = await orgKey(acme);
    assert.equal((await server.api(key.secret, 'GET', '/api/organizations/current')).status, 200);
    await clerk.apiKeys.revoke({ apiKeyId: key.id });
    const refused = await server.api(key.secret, 'GET', '/api/organizations/current');
    assert.equal(refused.status, 401, JSON.stringify(refused.body));
    assert.equal(refused.body.errors[0].code, 'unauthenticated');
    for (const secret of [`ak_${'x'.repeat(48)}`, 'ak_', `${key.secret}x`]) {
      const res = await server.api(secret, 'GET', '/api/organizations/current');
      assert.equal(res.status, 401, `${secret}: ${JSON.stringify(res.body)}`);
    }
  });

  test('an expired key is refused once its time is up', async () => {
    const key = await orgKey(acme, 1);
    assert.equal((await server.api(key.secret, 'GET', '/api/organizations/current')).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const refused = await server.api(key.secret, 'GET', '/api/organizations/current');
    assert.equal(refused.status, 401, JSON.stringify(refused.body));
  });

  test("a user's key acts for no organisation", async () => {
    const key = await clerk.apiKeys.create({ name: 'personal', subject: team.member.userId });
    const res = await server.api(key.secret!, 'GET', '/api/organizations/current');
    assert.equal(res.status, 404, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, 'no_active_organization');
  });

  test('session tokens work as before on the same routes', async () => {
    const token = await sessionToken(team.admin, acme.id);
    const res = await server.api(token, 'GET', '/api/organizations/current');
    assert.equal(res.status, 200);
    assert.equal(res.body.id, acme.id);
  });
});
