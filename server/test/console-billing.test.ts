import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_ROUTES } from '../src/console/console-api.ts';
import { BILLING } from '../../identity/test/support/billing-world.ts';
import { payWithTestCard } from './support/billing.ts';
import {
  startConsoleWorld,
  token,
  type ConsoleWorld,
  type OrganizationAdmin,
} from './support/console-world.ts';
import { TEST_BACKENDS, type ApiBody } from './support/embedded-server.ts';

/**
 * The console's billing area (docs/console.md) against the real server and its embedded provider: the
 * plans with their features and fees (hidden ones too), every payer's subscription items with their payer,
 * plan, status and period, and the statements with their payments — after real checkouts paid through the
 * Frontend API as clerk-js pays. No one but an operator with a second factor reads any of it; malformed
 * input is refused before any Backend API call, an unknown payer is a 404.
 */
/** The shared catalogue's free and paid organisation plans, its hidden one and a paid plan for users. */
const { free_org, business, legacy, pro_user } = BILLING.plans;
const CONSOLE_BILLING = { ...BILLING, plans: { free_org, business, legacy, pro_user } };

const BILLING_ROUTES = CONSOLE_ROUTES.filter((r) => r.path.startsWith('/billing/'));

for (const backend of TEST_BACKENDS) {
  describe(`console billing area [${backend.name}]`, () => {
    let world: ConsoleWorld;
    let payer: OrganizationAdmin;
    const read = async (url: string) => {
      const res = await world.get(world.operator, url);
      assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
      return res.body as ApiBody;
    };

    before(async () => {
      world = await startConsoleWorld({
        databaseUrl: backend.databaseUrl,
        enrollingBy: 'email',
        settings: { billing: CONSOLE_BILLING },
      });
      payer = world.target;
      await payWithTestCard(payer, `/organizations/${payer.organizationId}/commerce`, 'cplan_business');
      await payWithTestCard(payer, '/me/commerce', 'cplan_pro_user');
    });
    after(() => world?.server.stop());

    it('shows every plan, hidden ones too, with its features and fees, by payer type', async () => {
      const all = await read('/console/api/billing/plans');
      assert.deepEqual(all.data.map((p: ApiBody) => p.slug).sort(), [
        'business',
        'free_org',
        'legacy',
        'pro_user',
      ]);
      assert.equal(all.total_count, 4);
      const forOrgs = all.data.find((p: ApiBody) => p.slug === 'business');
      assert.equal(forOrgs.id, 'cplan_business');
      assert.equal(forOrgs.for_payer_type, 'org');
      assert.equal(forOrgs.fee.amount, 9900);
      assert.equal(forOrgs.fee.currency, 'USD');
      assert.equal(forOrgs.annual_monthly_fee.amount, 0);
      assert.deepEqual(
        forOrgs.features.map((f: ApiBody) => f.name),
        ['Reports', 'SSO'],
      );
      const forAUser = all.data.find((p: ApiBody) => p.slug === 'pro_user');
      assert.equal(forAUser.annual_monthly_fee.amount, 800);
      assert.equal(all.data.find((p: ApiBody) => p.slug === 'legacy').publicly_visible, false);
      const forUsers = await read('/console/api/billing/plans?payer_type=user');
      assert.deepEqual(
        forUsers.data.map((p: ApiBody) => p.slug),
        ['pro_user'],
      );
      const paged = await read('/console/api/billing/plans?payer_type=org&limit=1&offset=1');
      assert.equal(paged.data.length, 1);
      assert.equal(paged.total_count, 3);
    });

    it('lists every payer’s subscriptions with payer, plan, status and period, filtered', async () => {
      const all = await read('/console/api/billing/subscriptions?limit=100');
      const ofOrg = all.data.find(
        (i: ApiBody) => i.plan?.slug === 'business' && i.payer.organization_id === payer.organizationId,
      );
      assert.ok(ofOrg, JSON.stringify(all.data));
      assert.equal(ofOrg.status, 'active');
      assert.equal(ofOrg.plan_period, 'month');
      assert.equal(ofOrg.payer.user_id, null);
      assert.ok(ofOrg.period_start > 0 && ofOrg.period_end > ofOrg.period_start, 'a period');
      assert.equal(ofOrg.amount.amount, 9900);
      const ofUser = all.data.find((i: ApiBody) => i.plan?.slug === 'pro_user');
      assert.ok(ofUser);
      assert.equal(ofUser.payer.user_id, payer.userId);
      assert.equal(ofUser.payer.organization_id, null);
      assert.ok(
        all.data.every((i: ApiBody) => i.status !== 'abandoned'),
        'abandoned items only when asked for',
      );

      const filtered = await read(
        '/console/api/billing/subscriptions?status=active&payer_type=org&plan_id=cplan_business',
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
      const items = await read('/console/api/billing/subscriptions?plan_id=cplan_business');
      const orgPayerId: string = items.data[0].payer.id;
      assert.match(orgPayerId, /^cpayer_/);

      const ofOrg = await read(`/console/api/billing/statements?payer_id=${orgPayerId}`);
      assert.equal(ofOrg.total_count, 1);
      const [statement] = ofOrg.data;
      assert.equal(statement.status, 'open');
      assert.equal(statement.payer.organization_id, payer.organizationId);
      assert.equal(statement.totals.grand_total.amount, 9900);
      const payments = statement.groups.flatMap((g: ApiBody) => g.items);
      assert.equal(payments.length, 1);
      assert.equal(payments[0].status, 'paid');
      assert.equal(payments[0].charge_type, 'checkout');
      assert.equal(payments[0].amount.amount, 9900);
      assert.equal(payments[0].payment_source.last4, '4242');
      assert.equal(payments[0].subscription_item.plan.name, 'Business');

      const all = await read('/console/api/billing/statements');
      assert.equal(all.total_count, 2, 'the organisation’s and the user’s');
      assert.deepEqual(
        all.data.map((s: ApiBody) => s.payer.user_id ?? s.payer.organization_id).sort(),
        [payer.organizationId, payer.userId].sort(),
      );
      assert.equal((await read('/console/api/billing/statements?limit=1&offset=1')).data.length, 1);
    });

    it('gives no one else anything, refuses malformed input (422) and an unknown payer (404)', async () => {
      const items = await read('/console/api/billing/subscriptions?plan_id=cplan_business');
      const payerId: string = items.data[0].payer.id;
      const real = BILLING_ROUTES.map((route) => ({
        url: `/console/api${route.path}${route.path.endsWith('/statements') ? `?payer_id=${payerId}` : ''}`,
      }));
      assert.equal(real.length, 3, 'every route of the area');
      assert.ok(BILLING_ROUTES.every((r) => r.method === 'GET' && r.permission === 'operator'));
      for (const r of real) {
        for (const [who, bearer, code] of [
          [
            'an organisation admin',
            await token(world.orgAdmin, world.orgAdmin.organizationId),
            'not_an_operator',
          ],
          ['the payer’s own admin', await token(payer, payer.organizationId), 'not_an_operator'],
          ['an operator without a second factor', await token(world.enrolling), 'second_factor_required'],
        ] as const) {
          const res = await world.server.api(bearer, 'GET', r.url);
          assert.equal(res.status, 403, `${who}: ${r.url}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.errors[0].code, code);
          assert.equal(res.body.data, undefined, 'no data');
        }
      }

      await world.refusesAsMalformed(
        await token(world.operator),
        [
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
        ].map((url) => ['GET', url] as const),
      );

      const unknown = await world.get(
        world.operator,
        '/console/api/billing/statements?payer_id=cpayer_0000000000000000000000000000',
      );
      assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
      assert.equal(unknown.body.errors[0].code, 'resource_not_found');
    });

    it("names the plans in the operator's interface language (x-localization, else Accept-Language)", async () => {
      const settings = world.server.app.identity!.settings;
      const billing = settings.settings.billing;
      const bilingual = {
        ...CONSOLE_BILLING,
        plans: {
          ...CONSOLE_BILLING.plans,
          business: { ...business, name: { fr: 'Entreprise', en: 'Business' } },
        },
      };
      await settings.set({ ...settings.settings, billing: bilingual });
      try {
        const bearer = await token(world.operator);
        const businessName = async (headers: Record<string, string>) => {
          const res = await world.server.app.fastify.inject({
            method: 'GET',
            url: '/console/api/billing/plans?payer_type=org',
            headers: { authorization: `Bearer ${bearer}`, ...headers },
          });
          assert.equal(res.statusCode, 200, res.body);
          return (res.json() as ApiBody).data.find((p: ApiBody) => p.slug === 'business').name;
        };
        assert.equal(await businessName({ 'x-localization': 'EN' }), 'Business');
        assert.equal(await businessName({ 'x-localization': 'FR', 'accept-language': 'en' }), 'Entreprise');
        assert.equal(await businessName({ 'accept-language': 'en-GB,fr;q=0.5' }), 'Business');
        assert.equal(await businessName({ 'x-localization': 'DE', 'accept-language': 'en' }), 'Business');
        assert.equal(await businessName({}), 'Entreprise', 'French by default');
      } finally {
        await settings.set({ ...settings.settings, billing });
      }
    });

    it('answers 404 billing_disabled while the instance does not bill', async () => {
      const settings = world.server.app.identity!.settings;
      const billing = settings.settings.billing;
      await settings.set({ ...settings.settings, billing: { ...CONSOLE_BILLING, enabled: false } });
      try {
        for (const r of BILLING_ROUTES) {
          const res = await world.get(world.operator, `/console/api${r.path}`);
          assert.equal(res.status, 404, `${r.path}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.errors[0].code, 'billing_disabled');
        }
      } finally {
        await settings.set({ ...settings.settings, billing });
      }
    });
  });
}
