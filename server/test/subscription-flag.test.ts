import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { deriveWebhookSecret } from '@app/identity';
import { subscriptionStatusFrom, type BillingSubscriptionView } from '../src/billing/subscription-status.ts';
import { repairMetadata } from '../src/organizations/metadata-repair.ts';
import { billingEventOrganization, CLERK_WEBHOOK_PATH } from '../src/webhooks/clerk-webhooks.ts';
import {
  signUpUser,
  startEmbeddedServer,
  type EmbeddedServer,
  type User,
  TEST_BACKENDS,
} from './support/embedded-server.ts';
import { payWithTestCard } from './support/billing.ts';
import { backendApi } from './support/product-api-world.ts';
import { BackendFaults, organization, storedMetadata } from './support/vciso-world.ts';

/**
 * hasActiveSubscription derived from billing (docs/billing.md): a billing webhook makes the product ask the
 * Backend API for the organisation's subscription and project the flag into its public metadata; nothing
 * else writes it, a hand-written value is corrected, and the repair run reconciles missed webhooks.
 */

type Item = BillingSubscriptionView['subscriptionItems'][number];
const plan = (monthly: number, isDefault = false): Item['plan'] => ({
  isDefault,
  fee: { amount: monthly },
  annualMonthlyFee: { amount: 0 },
});
const view = (...items: Item[]): BillingSubscriptionView => ({ id: 'csub_1', subscriptionItems: items });

describe('the subscription flag, from the subscription', () => {
  test('no subscription, or only the free default plan, is NO', () => {
    assert.equal(subscriptionStatusFrom(null), 'NO');
    assert.equal(subscriptionStatusFrom(view()), 'NO');
    assert.equal(subscriptionStatusFrom(view({ status: 'active', plan: plan(0, true) })), 'NO');
  });

  test('an active paid item is YES — also cancelled but running to its period end, and past due', () => {
    assert.equal(
      subscriptionStatusFrom(
        view({ status: 'active', plan: plan(0, true) }, { status: 'active', plan: plan(2900) }),
      ),
      'YES',
    );
    assert.equal(subscriptionStatusFrom(view({ status: 'past_due', plan: plan(2900) })), 'YES');
    // Annual-only pricing is paid too.
    assert.equal(
      subscriptionStatusFrom(
        view({
          status: 'active',
          plan: { isDefault: false, fee: { amount: 0 }, annualMonthlyFee: { amount: 2400 } },
        }),
      ),
      'YES',
    );
  });

  test('a paid item in its free trial is TRIAL; a paid item outright wins over a trial', () => {
    assert.equal(
      subscriptionStatusFrom(view({ status: 'active', isFreeTrial: true, plan: plan(4900) })),
      'TRIAL',
    );
    assert.equal(
      subscriptionStatusFrom(
        view(
          { status: 'active', isFreeTrial: true, plan: plan(4900) },
          { status: 'active', plan: plan(2900) },
        ),
      ),
      'YES',
    );
  });

  test('upcoming, ended, abandoned, incomplete or free non-default items are NO', () => {
    for (const status of ['upcoming', 'ended', 'abandoned', 'incomplete', 'canceled', 'expired']) {
      assert.equal(subscriptionStatusFrom(view({ status, plan: plan(2900) })), 'NO', status);
    }
    assert.equal(subscriptionStatusFrom(view({ status: 'active', plan: plan(0) })), 'NO');
  });
});

describe('which organisation a billing event is about', () => {
  test('subscription and subscription item events name their organisation payer', () => {
    assert.equal(
      billingEventOrganization('subscription.updated', { payer: { organization_id: 'org_abc' } }),
      'org_abc',
    );
    assert.equal(
      billingEventOrganization('subscriptionItem.ended', { payer: { organization_id: 'org_abc' } }),
      'org_abc',
    );
  });
  test('a user payer, another event, or a malformed id names none', () => {
    assert.equal(billingEventOrganization('subscription.updated', { payer: { user_id: 'user_1' } }), null);
    assert.equal(
      billingEventOrganization('organization.updated', { payer: { organization_id: 'org_abc' } }),
      null,
    );
    assert.equal(
      billingEventOrganization('subscription.active', { payer: { organization_id: "org_x'; --" } }),
      null,
    );
    assert.equal(billingEventOrganization('subscription.active', null), null);
  });
});

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

const billingEvent = (type: string, organizationId: string) =>
  JSON.stringify({
    type,
    object: 'event',
    data: {
      object: 'commerce_subscription',
      id: 'csub_any',
      status: 'active',
      payer: { organization_id: organizationId },
    },
    timestamp: Date.now(),
    event_attributes: { http_request: { client_ip: '', user_agent: '' } },
  });

const BILLING = {
  enabled: true,
  currency: 'usd',
  gateway: { kind: 'offline' },
  features: {},
  plans: {
    free_org: { name: 'Free', payerType: 'org', monthlyFee: 0, isDefault: true },
    pro: { name: 'Pro', payerType: 'org', monthlyFee: 2900 },
  },
};

async function until(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

for (const backend of TEST_BACKENDS) {
  describe(`the subscription flag in the product server [${backend.name}]`, () => {
    let server: EmbeddedServer;
    let owner: User;
    let secret: string;
    const faults = new BackendFaults();
    before(async () => {
      server = await startEmbeddedServer({
        databaseUrl: backend.databaseUrl,
        app: { backendApi: faults.wrap, outboxTiming: { baseDelayMs: 20, pollMs: 100 } },
      });
      const settings = server.app.identity!.settings;
      await settings.set({ ...settings.settings, billing: BILLING });
      owner = await signUpUser(server, 'billing-owner');
      secret = deriveWebhookSecret(server.app.identity!.secretKey, 'product server endpoint');
    });
    after(() => server.stop());

    const post = (id: string, body: string) =>
      server.app.fastify.inject({
        method: 'POST',
        url: CLERK_WEBHOOK_PATH,
        headers: signed(secret, id, body),
        payload: body,
      });
    const stored = async (id: string) =>
      (
        await server.app.hierarchy.db.query<{ status: string }>(
          'SELECT status FROM organization_subscriptions WHERE organization_id = $1',
          [id],
        )
      )[0]?.status ?? null;

    test('the app config says billing is on with the offline gateway, and the CSP lets no Stripe host in', async () => {
      const res = await server.app.fastify.inject({ method: 'GET', url: '/app-config.json' });
      assert.deepEqual(res.json().billing, { enabled: true, gateway: 'offline' });
      const csp = String(res.headers['content-security-policy']);
      assert.ok(!csp.includes('stripe.com'), csp);
    });

    test('a billing webhook derives the flag from the provider and corrects a hand-written one', async () => {
      const org = await organization(owner, 'Hand Paid');
      // Someone with the secret key writes the flag by hand: the product does not take it.
      await backendApi(server).organizations.updateOrganizationMetadata(org, {
        publicMetadata: { hasActiveSubscription: 'YES' },
      });
      const res = await post('msg_flag_1', billingEvent('subscriptionItem.active', org));
      assert.equal(res.statusCode, 200, res.body);
      // The organisation has only the free default plan (or no subscription at all): NO.
      assert.equal(await stored(org), 'NO');
      await until(async () => (await storedMetadata(server, org))?.hasActiveSubscription === 'NO');
      assert.ok(
        faults.calls.some((c) => c.operation === 'getOrganizationBillingSubscription' && c.args[0] === org),
        'the provider was asked',
      );
    });

    test("a checkout through the Frontend API, as clerk-js pays: the provider's webhook turns the flag YES by itself", async () => {
      const org = await organization(owner, 'Paying Org');
      await payWithTestCard(owner, `/organizations/${org}/commerce`, 'cplan_pro');
      // Delivered by the embedded provider to this server, which asks the Backend API and projects.
      await until(async () => (await storedMetadata(server, org))?.hasActiveSubscription === 'YES');
      assert.equal(await stored(org), 'YES');
      // Someone writes NO by hand: the repair run puts back what billing says.
      await backendApi(server).organizations.updateOrganizationMetadata(org, {
        publicMetadata: { hasActiveSubscription: 'NO' },
      });
      await repairMetadata(server.app.hierarchy, 5, server.app.subscriptions);
      assert.equal((await storedMetadata(server, org))?.hasActiveSubscription, 'YES');
    });

    test('a user payer event, or an unsigned one, asks nothing and changes nothing', async () => {
      const org = await organization(owner, 'Untouched');
      const before = faults.calls.length;
      const userEvent = JSON.stringify({
        type: 'subscription.updated',
        object: 'event',
        data: { object: 'commerce_subscription', id: 'csub_u', payer: { user_id: owner.userId } },
        timestamp: Date.now(),
      });
      assert.equal((await post('msg_user', userEvent)).statusCode, 200);
      const body = billingEvent('subscription.active', org);
      const unsigned = await server.app.fastify.inject({
        method: 'POST',
        url: CLERK_WEBHOOK_PATH,
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      assert.equal(unsigned.statusCode, 401);
      assert.equal(faults.calls.length, before);
      assert.equal(await stored(org), null);
    });

    test('when the Backend API cannot answer: 503 (the provider retries) and the flag stays', async () => {
      const org = await organization(owner, 'Outage');
      faults.fail = (operation) => operation === 'getOrganizationBillingSubscription';
      try {
        const res = await post('msg_outage', billingEvent('subscription.past_due', org));
        assert.equal(res.statusCode, 503);
        assert.equal(res.json().errors[0].code, 'service_unavailable');
        assert.equal(await stored(org), null);
      } finally {
        faults.fail = null;
      }
      // The retry succeeds.
      assert.equal((await post('msg_outage', billingEvent('subscription.past_due', org))).statusCode, 200);
      assert.equal(await stored(org), 'NO');
    });

    test('the repair run re-derives every organisation: a missed webhook and a hand-written flag are reconciled', async () => {
      const org = await organization(owner, 'Missed Webhook');
      await backendApi(server).organizations.updateOrganizationMetadata(org, {
        publicMetadata: { hasActiveSubscription: 'TRIAL' },
      });
      const report = await repairMetadata(server.app.hierarchy, 5, server.app.subscriptions);
      assert.deepEqual(report.subscriptionsUnread, []);
      assert.ok(report.drifted.includes(org), JSON.stringify(report));
      assert.equal(await stored(org), 'NO');
      assert.equal((await storedMetadata(server, org))?.hasActiveSubscription, 'NO');
    });
  });
}
