import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { deriveWebhookSecret } from '@app/identity';
import { attachChild } from '../src/organizations/hierarchy-store.ts';
import { CLERK_WEBHOOK_PATH } from '../src/webhooks/clerk-webhooks.ts';
import {
  signUpUser,
  startEmbeddedServer,
  type EmbeddedServer,
  type User,
  TEST_BACKENDS,
} from './support/embedded-server.ts';
import { backendApi } from './support/product-api-world.ts';
import { links, organization } from './support/vciso-world.ts';

/**
 * The product server following the identity provider through webhooks (docs/webhooks.md): with no
 * setup, the embedded provider delivers `organization.deleted` to `POST /api/webhooks/clerk`, verified
 * with `@clerk/backend`'s `verifyWebhook`, and the organisation's hierarchy links go. A forged or
 * unsigned request changes nothing.
 */

/** Svix's signature, made here independently of the provider's code. */
function signed(secret: string, id: string, body: string) {
  const timestamp = Math.floor(Date.now() / 1000);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    'content-type': 'application/json',
    'svix-id': id,
    'svix-timestamp': String(timestamp),
    'svix-signature': `v1,${mac}`,
  };
}

const deletedEvent = (organizationId: string) =>
  JSON.stringify({
    type: 'organization.deleted',
    object: 'event',
    data: { object: 'organization', id: organizationId, deleted: true },
    timestamp: Date.now(),
    event_attributes: { http_request: { client_ip: '', user_agent: '' } },
  });

async function until(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

for (const backend of TEST_BACKENDS) {
  describe(`Clerk webhooks into the product server [${backend.name}]`, () => {
    let server: EmbeddedServer;
    let owner: User;
    let secret: string;
    before(async () => {
      server = await startEmbeddedServer({ databaseUrl: backend.databaseUrl });
      owner = await signUpUser(server, 'webhook-owner');
      secret = deriveWebhookSecret(server.app.identity!.secretKey, 'product server endpoint');
    });
    after(() => server.stop());

    const post = (headers: Record<string, string>, body: string) =>
      server.app.fastify.inject({ method: 'POST', url: CLERK_WEBHOOK_PATH, headers, payload: body });

    test('a forged, unsigned or stale webhook is refused (401) and changes nothing', async () => {
      const parent = await organization(owner, 'Forged Parent');
      const child = await organization(owner, 'Forged Child');
      await attachChild(server.app.hierarchy.db, parent, child);
      const before = await links(server);
      const body = deletedEvent(child);
      const forged = await post(
        signed(`whsec_${Buffer.alloc(24, 7).toString('base64')}`, 'msg_forged', body),
        body,
      );
      assert.equal(forged.statusCode, 401);
      assert.equal(forged.json().errors[0].code, 'unauthenticated');
      const unsigned = await post({ 'content-type': 'application/json' }, body);
      assert.equal(unsigned.statusCode, 401);
      // Signed over another body: the signature covers the bytes.
      const tampered = await post(signed(secret, 'msg_tampered', body), deletedEvent(parent));
      assert.equal(tampered.statusCode, 401);
      const stale = signed(secret, 'msg_stale', body);
      stale['svix-timestamp'] = String(Math.floor(Date.now() / 1000) - 3600);
      assert.equal((await post(stale, body)).statusCode, 401);
      assert.deepEqual(await links(server), before);
    });

    test('organization.deleted from the embedded provider removes the hierarchy links, with no setup', async () => {
      const top = await organization(owner, 'Top');
      const middle = await organization(owner, 'Middle');
      const bottom = await organization(owner, 'Bottom');
      await attachChild(server.app.hierarchy.db, top, middle);
      await attachChild(server.app.hierarchy.db, middle, bottom);
      assert.ok((await links(server)).includes(`${middle}→${top}`));
      await backendApi(server).organizations.deleteOrganization(middle);
      await until(async () => !(await links(server)).some((l) => l.includes(middle)));
      const left = await links(server);
      assert.ok(!left.includes(`${bottom}→${middle}`));
      assert.ok(!left.includes(`${middle}→${top}`));
      const [delivery] = await server.db.query<{ status: string; endpoint_id: string }>(
        `SELECT d.status, d.endpoint_id FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
           WHERE e.type = 'organization.deleted' AND e.payload->'data'->>'id' = $1`,
        [middle],
      );
      assert.deepEqual(delivery, { status: 'delivered', endpoint_id: 'ep_product' });

      // The same event again (a retry, a replay): acknowledged, nothing else changes.
      const body = deletedEvent(middle);
      const again = await post(signed(secret, 'msg_replayed', body), body);
      assert.equal(again.statusCode, 200);
      assert.deepEqual(await links(server), left);
    });
  });
}
