import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createClerkClient, type ClerkClient } from '@clerk/backend';
import { BAPI_PATH } from '../src/app.ts';
import {
  sessionToken,
  signUpWithOrganization,
  startEmbeddedServer,
  type EmbeddedServer,
  TEST_BACKENDS,
} from './support/embedded-server.ts';
import { backendApi, backendApiRequests } from './support/product-api-world.ts';

/**
 * Machines calling the product API with M2M tokens (docs/api-keys.md, "Machines calling the product API"),
 * against the real embedded provider and @clerk/backend's `authenticateRequest({acceptsToken: 'm2m_token'})`.
 * Set up as an operator would: the product's machine and the calling ones made through the Backend API,
 * then the product restarted with its machine's key in `CLERK_MACHINE_SECRET_KEY`. Only a machine scoped to
 * the product's reads, only on the routes for machines; people, API keys, other machines, revoked and
 * malformed tokens are refused, and failures from one address are limited.
 */

for (const backend of TEST_BACKENDS) {
  describe(`product API with M2M tokens [${backend.name}]`, () => {
    let server: EmbeddedServer;
    let clerk: ClerkClient;
    let organizationId: string;
    let scannerKey: string;
    let outsiderKey: string;
    let scannerId: string;
    let productId: string;
    /** A token of the scanner made before the restart, refused by a product without a machine key. */
    let tokenBeforeKey: string;
    let refusedWithoutKey: { status: number; body: { errors: { code: string; message: string }[] } };

    const asMachine = (secretKey: string) =>
      createClerkClient({ apiUrl: `${server.origin}${BAPI_PATH}`, machineSecretKey: secretKey });
    const tokenOf = async (secretKey: string) => (await asMachine(secretKey).m2m.createToken()).token!;
    const read = (token: string, id = organizationId) =>
      server.api(token, 'GET', `/api/machine/organizations/${id}`);

    before(async () => {
      const first = await startEmbeddedServer({ databaseUrl: backend.databaseUrl, keepData: true });
      const admin = backendApi(first);
      const product = await admin.machines.create({ name: 'Product API' });
      const scanner = await admin.machines.create({
        name: 'Compliance scanner',
        scopedMachines: [product.id],
      });
      const outsider = await admin.machines.create({ name: 'Unrelated job' });
      productId = product.id;
      scannerId = scanner.id;
      scannerKey = scanner.secretKey!;
      outsiderKey = outsider.secretKey!;
      const owner = await admin.users.createUser({
        emailAddress: [`owner-${Date.now()}@example.com`],
        password: 'a long enough password 42',
      });
      organizationId = (await admin.organizations.createOrganization({ name: 'Acme', createdBy: owner.id }))
        .id;
      tokenBeforeKey = (
        await createClerkClient({
          apiUrl: `${first.origin}${BAPI_PATH}`,
          machineSecretKey: scannerKey,
        }).m2m.createToken()
      ).token!;
      refusedWithoutKey = await first.api(
        tokenBeforeKey,
        'GET',
        `/api/machine/organizations/${organizationId}`,
      );
      await first.stop();
      server = await startEmbeddedServer({
        databaseUrl: backend.databaseUrl,
        reuse: first.data,
        env: { CLERK_MACHINE_SECRET_KEY: product.secretKey! },
        app: { m2mTokenFailureLimit: { limit: 6, windowSeconds: 600 } },
      });
      clerk = backendApi(server);
    });
    after(() => server?.stop());

    test('without the product machine key, M2M tokens are refused (403), not verified', () => {
      assert.equal(refusedWithoutKey.status, 403);
      assert.equal(refusedWithoutKey.body.errors[0]!.code, 'forbidden');
      assert.match(refusedWithoutKey.body.errors[0]!.message, /machine tokens/);
    });

    test("a machine scoped to the product's reads an organisation, with its modules", async () => {
      const res = await read(tokenBeforeKey);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.id, organizationId);
      assert.equal(res.body.name, 'Acme');
      // The product's defaults, written on first read, as for the organisation's own members.
      assert.equal(res.body.publicMetadata.organizationId, organizationId);
      assert.equal(typeof res.body.publicMetadata.complianceModuleEnabled, 'boolean');
      assert.equal(res.body.publicMetadata.uiLanguage, 'FR');
      // A well-formed id of no organisation is 404; a slug where an id goes is refused before any lookup.
      const missing = await read(tokenBeforeKey, 'org_2zzzzzzzzzzzzzzzzzzzzzzzzzz');
      assert.equal(missing.status, 404, JSON.stringify(missing.body));
      assert.equal((await read(tokenBeforeKey, 'acme')).status, 422);
    });

    test('the token is only for the routes for machines', async () => {
      const token = await tokenOf(scannerKey);
      for (const url of ['/api/me', '/api/organizations/current', '/api/organizations/current/children']) {
        const res = await server.api(token, 'GET', url);
        assert.equal(res.status, 403, url);
        assert.equal(res.body.errors[0].code, 'forbidden');
      }
    });

    test("people and an organisation's API key are refused on the route for machines", async () => {
      const person = await signUpWithOrganization(server, 'm2m-person', 'Person Org');
      const orgId = person.organizationId;
      const token = await sessionToken(person, orgId);
      const bySession = await server.api(token, 'GET', `/api/machine/organizations/${orgId}`);
      assert.equal(bySession.status, 403);
      const key = await clerk.apiKeys.create({ name: 'org key', subject: orgId, createdBy: person.userId });
      const byKey = await server.api(key.secret!, 'GET', `/api/machine/organizations/${orgId}`);
      assert.equal(byKey.status, 403);
    });

    test('a machine not scoped to the product, a revoked token, a token after its scope is removed: 401', async () => {
      const outsider = await read(await tokenOf(outsiderKey));
      assert.equal(outsider.status, 401);
      assert.equal(outsider.body.errors[0].code, 'unauthenticated');

      const made = await asMachine(scannerKey).m2m.createToken();
      assert.equal((await read(made.token!)).status, 200);
      await asMachine(scannerKey).m2m.revokeToken({ m2mTokenId: made.id, revocationReason: 'test' });
      assert.equal((await read(made.token!)).status, 401);

      const later = await tokenOf(scannerKey);
      await clerk.machines.deleteScope(scannerId, productId);
      assert.equal((await read(later)).status, 401, 'refused at once once the operator removes the scope');
      await clerk.machines.createScope(scannerId, productId);
      assert.equal((await read(later)).status, 200);
    });

    test('malformed tokens are refused without a Backend API call; failures from one address are limited', async () => {
      const calls = backendApiRequests(server);
      for (const bad of ['mt_short', `mt_${'a'.repeat(300)}`, 'mt_with spaces and more than sixteen']) {
        const res = await read(bad);
        assert.ok([401, 429].includes(res.status), `${bad}: ${res.status}`);
      }
      calls.stop();
      assert.deepEqual(calls.paths, []);
      // Past the limit (6 here, with the failures of the tests before), even a good token waits.
      let status = 401;
      for (let i = 0; i < 6 && status === 401; i++) status = (await read(`mt_${'x'.repeat(48)}`)).status;
      assert.equal(status, 429);
      const limited = await read(await tokenOf(scannerKey));
      assert.equal(limited.status, 429);
      assert.equal(limited.body.errors[0].code, 'too_many_requests');
    });
  });
}
