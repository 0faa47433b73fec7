import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_ROUTES } from '../src/console/console-api.ts';
import {
  sessionToken,
  signUpUser,
  signUpWithOrganization,
  startEmbeddedServer,
  type ApiBody,
  type EmbeddedServer,
  type User,
  TEST_BACKENDS,
} from './support/embedded-server.ts';
import { payWithTestCard } from './support/billing.ts';
import { enrolTotp } from './support/totp.ts';

/**
 * The console's billing area (docs/console.md) against the real server and its embedded provider: the
 * plans with their features and fees (hidden ones too), every payer's subscription items with their payer,
 * plan, status and period, and the statements with their payments — after real checkouts paid through the
 * Frontend API as clerk-js pays. No one but an operator with a second factor reads any of it; malformed
 * input is refused before any Backend API call, an unknown payer is a 404.
 */
const BILLING = {
  enabled: true,
  currency: 'usd',
  gateway: { kind: 'offline' },
  features: {
    reports: { name: 'Reports', description: 'Monthly reports' },
    sso: { name: 'Single sign-on' },
  },
  plans: {
    free_org: { name: 'Free', payerType: 'org', monthlyFee: 0, isDefault: true },
    pro: {
      name: 'Pro',
      payerType: 'org',
      monthlyFee: 2900,
      annualMonthlyFee: 2400,
      features: ['reports', 'sso'],
    },
    legacy: { name: 'Legacy', payerType: 'org', monthlyFee: 1900, publiclyVisible: false },
    personal: { name: 'Personal', payerType: 'user', monthlyFee: 900, features: ['reports'] },
  },
};

const BILLING_ROUTES = CONSOLE_ROUTES.filter((r) => r.path.startsWith('/billing/'));

for (const backend of TEST_BACKENDS) {
  describe(`console billing area [${backend.name}]`, () => {
    let server: EmbeddedServer;
    let operator: User;
    let enrolling: User;
    let orgAdmin: User & { organizationId: string };
    let payer: User & { organizationId: string };
    const token = (user: User, org: string | null = null) => sessionToken(user, org);
    const get = async (user: User, url: string) => server.api(await token(user), 'GET', url);
    const read = async (url: string) => {
      const res = await get(operator, url);
      assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
      return res.body as ApiBody;
    };

    before(async () => {
      server = await startEmbeddedServer({ databaseUrl: backend.databaseUrl });
      operator = await signUpUser(server, 'operator');
      await enrolTotp(operator);
      enrolling = await signUpUser(server, 'enrolling');
      orgAdmin = await signUpWithOrganization(server, 'org-admin', 'Admin Org');
      payer = await signUpWithOrganization(server, 'payer', 'Paying Org');
      const settings = server.app.identity!.settings;
      await settings.set({
        ...settings.settings,
        console: { operators: [operator.userId, enrolling.email] },
        billing: BILLING,
      });
      await payWithTestCard(payer, `/organizations/${payer.organizationId}/commerce`, 'cplan_pro');
      await payWithTestCard(payer, '/me/commerce', 'cplan_personal');
    });
    after(() => server?.stop());

    it('shows every plan, hidden ones too, with its features and fees, by payer type', async () => {
      const all = await read('/console/api/billing/plans');
      assert.deepEqual(all.data.map((p: ApiBody) => p.slug).sort(), [
        'free_org',
        'legacy',
        'personal',
        'pro',
      ]);
      assert.equal(all.total_count, 4);
      const pro = all.data.find((p: ApiBody) => p.slug === 'pro');
      assert.equal(pro.id, 'cplan_pro');
      assert.equal(pro.for_payer_type, 'org');
      assert.equal(pro.fee.amount, 2900);
      assert.equal(pro.fee.currency, 'USD');
      assert.equal(pro.annual_monthly_fee.amount, 2400);
      assert.deepEqual(
        pro.features.map((f: ApiBody) => f.name),
        ['Reports', 'Single sign-on'],
      );
      assert.equal(all.data.find((p: ApiBody) => p.slug === 'legacy').publicly_visible, false);
      const forUsers = await read('/console/api/billing/plans?payer_type=user');
      assert.deepEqual(
        forUsers.data.map((p: ApiBody) => p.slug),
        ['personal'],
      );
      const paged = await read('/console/api/billing/plans?payer_type=org&limit=1&offset=1');
      assert.equal(paged.data.length, 1);
      assert.equal(paged.total_count, 3);
    });

    it('lists every payer’s subscriptions with payer, plan, status and period, filtered', async () => {
      const all = await read('/console/api/billing/subscriptions?limit=100');
      const ofOrg = all.data.find(
        (i: ApiBody) => i.plan?.slug === 'pro' && i.payer.organization_id === payer.organizationId,
      );
      assert.ok(ofOrg, JSON.stringify(all.data));
      assert.equal(ofOrg.status, 'active');
      assert.equal(ofOrg.plan_period, 'month');
      assert.equal(ofOrg.payer.user_id, null);
      assert.ok(ofOrg.period_start > 0 && ofOrg.period_end > ofOrg.period_start, 'a period');
      assert.equal(ofOrg.amount.amount, 2900);
      const ofUser = all.data.find((i: ApiBody) => i.plan?.slug === 'personal');
      assert.ok(ofUser);
      assert.equal(ofUser.payer.user_id, payer.userId);
      assert.equal(ofUser.payer.organization_id, null);
      assert.ok(
        all.data.every((i: ApiBody) => i.status !== 'abandoned'),
        'abandoned items only when asked for',
      );

      const filtered = await read(
        '/console/api/billing/subscriptions?status=active&payer_type=org&plan_id=cplan_pro',
      );
      assert.deepEqual(
        filtered.data.map((i: ApiBody) => i.id),
        [ofOrg.id],
      );
      const users = await read('/console/api/billing/subscriptions?payer_type=user');
      assert.deepEqual(
        users.data.map((i: ApiBody) => i.id),
        [ofUser.id],
      );
      assert.equal((await read('/console/api/billing/subscriptions?plan_id=cplan_legacy')).total_count, 0);
      assert.equal((await read('/console/api/billing/subscriptions?status=past_due')).total_count, 0);
      const page = await read('/console/api/billing/subscriptions?limit=1');
      assert.equal(page.data.length, 1);
      assert.equal(page.total_count, all.total_count);
    });

    it('shows the statements of every payer or of one, with their payments', async () => {
      const items = await read('/console/api/billing/subscriptions?plan_id=cplan_pro');
      const orgPayerId: string = items.data[0].payer.id;
      assert.match(orgPayerId, /^cpayer_/);

      const ofOrg = await read(`/console/api/billing/statements?payer_id=${orgPayerId}`);
      assert.equal(ofOrg.total_count, 1);
      const [statement] = ofOrg.data;
      assert.equal(statement.status, 'open');
      assert.equal(statement.payer.organization_id, payer.organizationId);
      assert.equal(statement.totals.grand_total.amount, 2900);
      const payments = statement.groups.flatMap((g: ApiBody) => g.items);
      assert.equal(payments.length, 1);
      assert.equal(payments[0].status, 'paid');
      assert.equal(payments[0].charge_type, 'checkout');
      assert.equal(payments[0].amount.amount, 2900);
      assert.equal(payments[0].payment_source.last4, '4242');
      assert.equal(payments[0].subscription_item.plan.name, 'Pro');

      const all = await read('/console/api/billing/statements');
      assert.equal(all.total_count, 2, 'the organisation’s and the user’s');
      assert.deepEqual(
        all.data.map((s: ApiBody) => s.payer.user_id ?? s.payer.organization_id).sort(),
        [payer.organizationId, payer.userId].sort(),
      );
      assert.equal((await read('/console/api/billing/statements?limit=1&offset=1')).data.length, 1);
    });

    it('gives no one else anything, refuses malformed input (422) and an unknown payer (404)', async () => {
      const items = await read('/console/api/billing/subscriptions?plan_id=cplan_pro');
      const payerId: string = items.data[0].payer.id;
      const real = BILLING_ROUTES.map((route) => ({
        url: `/console/api${route.path}${route.path.endsWith('/statements') ? `?payer_id=${payerId}` : ''}`,
      }));
      assert.equal(real.length, 3, 'every route of the area');
      assert.ok(BILLING_ROUTES.every((r) => r.method === 'GET' && r.permission === 'operator'));
      for (const r of real) {
        for (const [who, bearer, code] of [
          ['an organisation admin', await token(orgAdmin, orgAdmin.organizationId), 'not_an_operator'],
          ['the payer’s own admin', await token(payer, payer.organizationId), 'not_an_operator'],
          ['an operator without a second factor', await token(enrolling), 'second_factor_required'],
        ] as const) {
          const res = await server.api(bearer, 'GET', r.url);
          assert.equal(res.status, 403, `${who}: ${r.url}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.errors[0].code, code);
          assert.equal(res.body.data, undefined, 'no data');
        }
      }

      for (const url of [
        '/console/api/billing/plans?payer_type=team',
        '/console/api/billing/plans?limit=101',
        '/console/api/billing/plans?offset=-1',
        '/console/api/billing/subscriptions?status=canceled',
        '/console/api/billing/subscriptions?payer_type=organization',
        '/console/api/billing/subscriptions?plan_id=pro',
        '/console/api/billing/subscriptions?plan_id=cplan_%2e%2e%2f',
        '/console/api/billing/subscriptions?limit=0',
        `/console/api/billing/statements?payer_id=${payer.userId}`,
        '/console/api/billing/statements?payer_id=cpayer_a%26limit%3D500',
        '/console/api/billing/statements?offset=x',
      ]) {
        const res = await get(operator, url);
        assert.equal(res.status, 422, `${url}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, 'invalid_request', url);
      }

      const unknown = await get(
        operator,
        '/console/api/billing/statements?payer_id=cpayer_0000000000000000000000000000',
      );
      assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
      assert.equal(unknown.body.errors[0].code, 'resource_not_found');
    });

    it('answers 404 billing_disabled while the instance does not bill', async () => {
      const settings = server.app.identity!.settings;
      const billing = settings.settings.billing;
      await settings.set({ ...settings.settings, billing: { ...BILLING, enabled: false } });
      try {
        for (const r of BILLING_ROUTES) {
          const res = await get(operator, `/console/api${r.path}`);
          assert.equal(res.status, 404, `${r.path}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.errors[0].code, 'billing_disabled');
        }
      } finally {
        await settings.set({ ...settings.settings, billing });
      }
    });
  });
}
