import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { backendApiClient } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { signInWithPassword, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Json } from './support/harness.ts';
import { WebhookReceiver } from './support/webhook-receiver.ts';
import { newWebhookSecret } from '../src/webhooks/signing.ts';
import type { WebhookTiming } from '../src/webhooks/timing-settings.ts';

/** Svix's schedule shortened (config, not a fake clock): three quick retries, then failed. */
const FAST: WebhookTiming = {
  pollMs: 50,
  timeoutMs: 2000,
  leaseMs: 4000,
  retryDelaysMs: [50, 100, 100],
  batch: 20,
};

const SECRET_ENV = 'WEBHOOKS_TEST_SIGNING_SECRET';

async function withEndpoint(h: Harness, url: string, events: string[] = []): Promise<void> {
  const current = h.identity.settings.settings;
  await h.identity.settings.set({
    ...current,
    webhooks: { endpoints: { ep_test: { url, events, enabled: true, secret: { env: SECRET_ENV } } } },
  });
}

forEachBackend('webhooks: events and signed delivery', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  let receiver: WebhookReceiver;
  before(async () => {
    const secret = newWebhookSecret();
    process.env[SECRET_ENV] = secret;
    receiver = await WebhookReceiver.start(secret);
    h = await Harness.start(backend, { config: { webhooks: FAST } });
    await withEndpoint(h, receiver.url);
    clerk = await backendApiClient(h);
  });
  after(async () => {
    await h.close();
    await receiver.close();
  });

  const deliveredOf = (type: string, match: (data: Json) => boolean = () => true) =>
    receiver.delivered.filter((r) => r.type === type && match(r.data));
  const waitFor = (type: string, match: (data: Json) => boolean = () => true) =>
    receiver.waitFor(() => deliveredOf(type, match).length > 0);

  it('delivers Clerk’s events with the Backend API’s objects, each verified by verifyWebhook', async () => {
    const email = uniqueEmail('hooked');
    const browser = h.browser();
    const { userId, sessionId } = await signUp(h, browser, email, { firstName: 'Ada' });
    await waitFor('user.created', (d) => d.id === userId);
    const [created] = deliveredOf('user.created', (d) => d.id === userId);
    assert.equal(created!.data.object, 'user');
    assert.equal(created!.data.first_name, 'Ada');
    assert.equal((created!.data.email_addresses as Json[])[0].email_address, email);
    // The Backend API's view: private metadata included.
    assert.deepEqual(created!.data.private_metadata, {});
    await waitFor('session.created', (d) => d.id === sessionId && d.user_id === userId);
    await waitFor('email.created', (d) => d.to_email_address === email && d.object === 'email');

    assert.equal((await browser.patch('/me', { first_name: 'Grace' })).status, 200);
    await waitFor('user.updated', (d) => d.id === userId && d.first_name === 'Grace');
    await clerk.users.updateUserMetadata(userId, { privateMetadata: { plan: 'gold' } });
    await waitFor('user.updated', (d) => d.id === userId && d.private_metadata?.plan === 'gold');

    const org = await clerk.organizations.createOrganization({ name: 'Hooked Org', createdBy: userId });
    await waitFor('organization.created', (d) => d.id === org.id && d.name === 'Hooked Org');
    await waitFor(
      'organizationMembership.created',
      (d) => d.organization.id === org.id && d.public_user_data.user_id === userId,
    );
    await clerk.organizations.updateOrganization(org.id, { name: 'Hooked Org 2' });
    await waitFor('organization.updated', (d) => d.id === org.id && d.name === 'Hooked Org 2');

    const invitation = await clerk.organizations.createOrganizationInvitation({
      organizationId: org.id,
      inviterUserId: userId,
      emailAddress: uniqueEmail('invited'),
      role: 'org:member',
    });
    await waitFor('organizationInvitation.created', (d) => d.id === invitation.id);
    await clerk.organizations.revokeOrganizationInvitation({
      organizationId: org.id,
      invitationId: invitation.id,
      requestingUserId: userId,
    });
    await waitFor('organizationInvitation.revoked', (d) => d.id === invitation.id && d.status === 'revoked');

    const signedOut = await browser.post(`/client/sessions/${sessionId}/end`, {});
    assert.equal(signedOut.status, 200, JSON.stringify(signedOut.body));
    await waitFor('session.ended', (d) => d.id === sessionId && d.status === 'ended');

    await clerk.organizations.deleteOrganization(org.id);
    await waitFor('organization.deleted', (d) => d.id === org.id && d.deleted === true);
    const again = h.browser();
    await signInWithPassword(again, email);
    assert.equal((await again.delete('/me')).status, 200);
    await waitFor('user.deleted', (d) => d.id === userId);
    assert.deepEqual(deliveredOf('user.deleted', (d) => d.id === userId)[0]!.data, {
      id: userId,
      object: 'user',
      deleted: true,
    });
    // Memberships go with their organisation: Clerk reports the organisation's deletion only.
    assert.equal(
      deliveredOf('organizationMembership.deleted', (d) => d.organization.id === org.id).length,
      0,
    );

    assert.deepEqual(receiver.refused, []);
    const ids = receiver.delivered.map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length, 'each event delivered once');
  });

  it('memberships: created, updated and deleted, each with its organisation and member', async () => {
    const { userId: owner } = await signUp(h, h.browser(), uniqueEmail('owner'));
    const { userId: member } = await signUp(h, h.browser(), uniqueEmail('member'));
    const org = await clerk.organizations.createOrganization({ name: 'Members Org', createdBy: owner });
    const ofMember = (d: Json) => d.organization.id === org.id && d.public_user_data.user_id === member;
    await clerk.organizations.createOrganizationMembership({
      organizationId: org.id,
      userId: member,
      role: 'org:member',
    });
    await waitFor('organizationMembership.created', (d) => ofMember(d) && d.role === 'org:member');
    await clerk.organizations.updateOrganizationMembership({
      organizationId: org.id,
      userId: member,
      role: 'org:admin',
    });
    await waitFor('organizationMembership.updated', (d) => ofMember(d) && d.role === 'org:admin');
    await clerk.organizations.deleteOrganizationMembership({ organizationId: org.id, userId: member });
    await waitFor('organizationMembership.deleted', ofMember);
  });

  it('the development outbox shows events and deliveries, never payloads', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/__dev/webhooks' });
    assert.equal(res.statusCode, 200);
    const events: Json[] = res.json();
    const created = events.find((e) => e.type === 'user.created');
    assert.ok(created, 'a user.created is listed');
    assert.deepEqual(created.subscribed, ['ep_test']);
    assert.equal(created.deliveries[0].endpoint_id, 'ep_test');
    assert.equal(created.deliveries[0].status, 'delivered');
    assert.equal(created.deliveries[0].attempt_log[0].status_code, 200);
    assert.ok(!('payload' in created) && !('data' in created));
    const page = await h.app.inject({ method: 'GET', url: '/__dev/webhooks.html' });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /user\.created/);
    assert.doesNotMatch(page.body, /private_metadata|email_addresses/);
  });

  it('a change made outside any transaction still becomes its event, a round of the worker later', async () => {
    const { userId } = await signUp(h, h.browser(), uniqueEmail('autocommit'));
    await h.identity.webhooks.db.query(`UPDATE users SET first_name = 'Outside' WHERE id = $1`, [userId]);
    await waitFor('user.updated', (d) => d.id === userId && d.first_name === 'Outside');
  });

  it('emits nothing for a change that rolls back', async () => {
    const before = (await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_events'))[0]!.n;
    await assert.rejects(
      h.identity.deps.db.transaction(async (tx) => {
        await tx.query(`INSERT INTO users (id, first_name) VALUES ('user_rolledback', 'Nobody')`);
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    const afterCount = (await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_events'))[0]!
      .n;
    assert.equal(afterCount, before);
    const marks = await h.db.query('SELECT 1 FROM webhook_changes');
    assert.equal(marks.length, 0);
    await h.identity.webhooks.worker.runOnce();
    assert.equal(receiver.received.filter((r) => r.data.id === 'user_rolledback').length, 0);
  });

  it('logs every attempt and, after the last retry, marks the delivery failed', async () => {
    receiver.answer = () => 503;
    try {
      const { userId } = await signUp(h, h.browser(), uniqueEmail('failing'));
      const [event] = await h.db.query<{ id: string }>(
        `SELECT id FROM webhook_events WHERE type = 'user.created' AND payload->'data'->>'id' = $1`,
        [userId],
      );
      const until = Date.now() + 15_000;
      let delivery: Json;
      for (;;) {
        [delivery] = await h.db.query<Json>('SELECT * FROM webhook_deliveries WHERE event_id = $1', [
          event!.id,
        ]);
        if (delivery?.status === 'failed' || Date.now() > until) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(delivery.status, 'failed');
      assert.equal(delivery.attempts, FAST.retryDelaysMs.length + 1);
      const attempts = await h.db.query<Json>(
        'SELECT * FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt',
        [delivery.id],
      );
      assert.deepEqual(
        attempts.map((a) => a.attempt),
        [1, 2, 3, 4],
      );
      for (const a of attempts) {
        assert.equal(a.status_code, 503);
        assert.equal(a.response_excerpt, 'answered 503');
        assert.ok(a.latency_ms >= 0);
      }
    } finally {
      receiver.answer = () => 200;
    }
  });
});

forEachBackend('webhooks: retries and several workers', (backend) => {
  let receiver: WebhookReceiver;
  before(async () => {
    const secret = newWebhookSecret();
    process.env[SECRET_ENV] = secret;
    receiver = await WebhookReceiver.start(secret);
  });
  after(() => receiver.close());

  it('a receiver that fails, then recovers, receives every event exactly once', async () => {
    const h = await Harness.start(backend, { config: { webhooks: FAST } });
    try {
      await withEndpoint(h, receiver.url, ['user.created']);
      let failures = 0;
      // Fewer failures in all than attempts per delivery: whichever events they hit, each gets through.
      receiver.answer = () => (failures++ < FAST.retryDelaysMs.length ? 500 : 200);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await signUp(h, h.browser(), uniqueEmail(`retry${i}`))).userId);
      await receiver.waitFor((r) => ids.every((id) => r.delivered.some((d) => d.data.id === id)));
      for (const id of ids) {
        assert.equal(receiver.delivered.filter((d) => d.data.id === id).length, 1, `${id} once`);
      }
      assert.ok(receiver.received.some((r) => r.status === 500));
    } finally {
      receiver.answer = () => 200;
      await h.close();
    }
  });

  it('two workers on one database never send one delivery twice, at once or at all', async () => {
    const h = await Harness.start(backend, { config: { webhooks: FAST } });
    const twin = await h.twin();
    try {
      await withEndpoint(h, receiver.url, ['organization.created']);
      await twin.identity.settings.refresh();
      // Slow answers widen the window in which a second worker could take the same delivery.
      receiver.answer = async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return 200;
      };
      const { userId } = await signUp(h, h.browser(), uniqueEmail('twins'));
      const clerk = await backendApiClient(h);
      const orgIds = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const org = await clerk.organizations.createOrganization({ name: `Twin ${i}`, createdBy: userId });
          return org.id;
        }),
      );
      // Both workers run rounds as fast as they can besides their timers.
      await Promise.all([h.identity.webhooks.worker.runOnce(), twin.identity.webhooks.worker.runOnce()]);
      await receiver.waitFor((r) => orgIds.every((id) => r.delivered.some((d) => d.data.id === id)));
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const id of orgIds) {
        assert.equal(receiver.delivered.filter((d) => d.data.id === id).length, 1, `${id} once`);
      }
      assert.equal(receiver.maxConcurrentPerId, 1);
    } finally {
      receiver.answer = () => 200;
      await twin.close();
      await h.close();
    }
  });
});
