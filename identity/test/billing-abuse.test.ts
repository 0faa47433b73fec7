import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BILLING_LIMITS } from '../src/fapi/billing/billing-limits.ts';
import { MAX_OPEN_SETUP_INTENTS } from '../src/billing/gateways/offline-gateway.ts';
import { MAX_LIVE_PAYMENT_SOURCES } from '../src/billing/payment-sources.ts';
import { forEachBackend } from './support/backends.ts';
import { Harness, type Json } from './support/harness.ts';
import {
  addMember,
  assertError,
  createOrganization,
  newMember,
  type Member,
} from './support/organizations.ts';
import { enableBilling, ok, scopeOf } from './support/billing-world.ts';

/**
 * Floods of billing writes (issue #17, hardening): each write is limited per payer (and checkouts per
 * user); a call past its limit is 429 `too_many_requests` with Retry-After and changes nothing. clerk-js's
 * confirm retries (a 409 `checkout_already_in_progress`, then three more 2 s apart) are never limited. A
 * card form's setups and a payer's payment methods are bounded. Concurrent first looks at a subscription
 * make one subscription.
 */

forEachBackend('billing abuse', (backend) => {
  let h: Harness;

  before(async () => {
    h = await Harness.start(backend);
    await enableBilling(h);
  });
  after(() => h.close());

  const billingRows = async () =>
    JSON.stringify({
      payers: await h.db.query('SELECT * FROM billing_payers ORDER BY id'),
      subscriptions: await h.db.query('SELECT id FROM billing_subscriptions ORDER BY id'),
      items: await h.db.query('SELECT id, status, canceled_at FROM billing_subscription_items ORDER BY id'),
      checkouts: await h.db.query('SELECT id, status, confirm_started_at FROM billing_checkouts ORDER BY id'),
      sources: await h.db.query('SELECT id, removed_at FROM billing_payment_sources ORDER BY id'),
      intents: await h.db.query('SELECT id, payment_method_ref FROM billing_setup_intents ORDER BY id'),
      attempts: await h.db.query('SELECT id, status FROM billing_payment_attempts ORDER BY id'),
      ledger: await h.db.query('SELECT id FROM billing_ledger ORDER BY id'),
    });

  const assertLimited = (res: { status: number; headers: Json; body: Json }) => {
    assertError(res, 429, 'too_many_requests');
    const wait = Number(res.headers['retry-after']);
    assert.ok(wait >= 1 && wait <= 3600, `Retry-After ${res.headers['retry-after']}`);
  };

  /** A card saved the way clerk-js's card form saves one: initialize, the form's confirm, add. */
  async function addCard(m: Member, number: string, orgId?: string): Promise<Json> {
    const scope = scopeOf(orgId);
    const init = ok(
      await m.browser.post(`${scope}/commerce/payment_sources/initialize`, { gateway: 'stripe' }),
    );
    const confirmed = await h.browser().post('/commerce/offline_gateway/setup_intents/confirm', {
      client_secret: init.response.external_client_secret,
      card_number: number,
      exp_month: '12',
      exp_year: '2040',
      cvc: '123',
    });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    return ok(
      await m.browser.post(`${scope}/commerce/payment_sources`, {
        gateway: 'stripe',
        payment_token: confirmed.body.payment_method,
      }),
    ).response;
  }

  /** Fills a limit's window as if `count` calls had been made now (the counter row hit() keeps). */
  async function fillWindow(key: string, count: number) {
    await h.db.query(
      `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET window_start = $2, count = $3`,
      [key, h.clock.now, count],
    );
  }

  describe('checkouts', () => {
    it('a payer starting checkouts past the limit gets 429 and no checkout', async () => {
      const m = await newMember(h, 'checkout-flood');
      for (let i = 0; i < BILLING_LIMITS.checkoutPerPayer; i++) {
        ok(
          await m.browser.post('/me/commerce/checkouts', { plan_id: 'cplan_pro_user', plan_period: 'month' }),
        );
      }
      const before = await billingRows();
      assertLimited(
        await m.browser.post('/me/commerce/checkouts', { plan_id: 'cplan_pro_user', plan_period: 'month' }),
      );
      assert.equal(await billingRows(), before);
      // Refused calls (an unknown plan) count nothing: they change nothing either.
      const other = await newMember(h, 'checkout-refused');
      for (let i = 0; i < BILLING_LIMITS.checkoutPerPayer + 5; i++) {
        assertError(
          await other.browser.post('/me/commerce/checkouts', { plan_id: 'cplan_nope' }),
          404,
          'resource_not_found',
        );
      }
      ok(await other.browser.post('/me/commerce/checkouts', { plan_id: 'cplan_pro_user' }));
      // An hour on, the payer may start again.
      h.clock.advance(3601);
      ok(await m.browser.post('/me/commerce/checkouts', { plan_id: 'cplan_pro_user', plan_period: 'month' }));
    });

    it('one user across many organisations is bounded per user too', async () => {
      const admin = await newMember(h, 'many-orgs');
      const a = await createOrganization(admin, 'Flood A');
      const b = await createOrganization(admin, 'Flood B');
      await fillWindow(`billing:checkout:by:${admin.userId}`, BILLING_LIMITS.checkoutPerUser);
      const before = await billingRows();
      for (const org of [a, b]) {
        assertLimited(
          await admin.browser.post(`/organizations/${org.id}/commerce/checkouts`, { plan_id: 'cplan_team' }),
        );
      }
      assert.equal(await billingRows(), before);
    });

    it('confirms are limited per payer, clerk-js’s retry pattern never is', async () => {
      const admin = await newMember(h, 'confirm-flood');
      const org = await createOrganization(admin, 'Declines Ltd');
      const scope = `/organizations/${org.id}`;
      // A card whose charges are declined: every confirm calls the gateway and fails (402).
      const card = await addCard(admin, '4000000000000002', org.id);
      const checkout = ok(
        await admin.browser.post(`${scope}/commerce/checkouts`, { plan_id: 'cplan_business' }),
      ).response;
      const confirm = (id: string) =>
        admin.browser.patch(`${scope}/commerce/checkouts/${id}/confirm`, { payment_source_id: card.id });
      for (let i = 0; i < BILLING_LIMITS.confirmPerPayer; i++) {
        assertError(await confirm(checkout.id), 402, 'card_declined');
      }
      const before = await billingRows();
      assertLimited(await confirm(checkout.id));
      assert.equal(await billingRows(), before, 'a limited confirm charges nothing and records nothing');

      // Another confirm of this payer is running (taken 1 s ago): clerk-js gets 409 and retries three
      // times 2 s apart; none of them is limited, though the window is full.
      await h.db.query(`UPDATE billing_checkouts SET confirm_started_at = $2 WHERE id = $1`, [
        checkout.id,
        new Date(h.clock.now.getTime() - 1000),
      ]);
      assertError(await confirm(checkout.id), 409, 'checkout_already_in_progress');
      for (let retry = 0; retry < 3; retry++) {
        h.clock.advance(2);
        assertError(await confirm(checkout.id), 409, 'checkout_already_in_progress');
      }
      // It completes: the next retry answers the completed checkout, still not limited.
      await h.db.query(
        `UPDATE billing_checkouts SET status = 'completed', confirm_started_at = NULL WHERE id = $1`,
        [checkout.id],
      );
      assert.equal(ok(await confirm(checkout.id)).response.status, 'completed');
      const counter = await h.db.query<{ count: number }>(`SELECT count FROM rate_limits WHERE key = $1`, [
        `billing:confirm:payer:org:${org.id}`,
      ]);
      // The 20 declines and the refused one: the retries were not counted.
      assert.equal(counter[0]!.count, BILLING_LIMITS.confirmPerPayer + 1);
    });
  });

  describe('payment sources', () => {
    it('initialize is limited per payer, and keeps few unconfirmed setups', async () => {
      const m = await newMember(h, 'initialize-flood');
      for (let i = 0; i < BILLING_LIMITS.initializePerPayer; i++) {
        ok(await m.browser.post('/me/commerce/payment_sources/initialize', { gateway: 'stripe' }));
      }
      const payer = (
        await h.db.query<{ id: string }>(`SELECT id FROM billing_payers WHERE user_id = $1`, [m.userId])
      )[0]!;
      const open = await h.count('billing_setup_intents', 'payer_id = $1', [payer.id]);
      assert.equal(open, MAX_OPEN_SETUP_INTENTS, 'older unconfirmed setups are retired');
      const before = await billingRows();
      assertLimited(await m.browser.post('/me/commerce/payment_sources/initialize', { gateway: 'stripe' }));
      assert.equal(await billingRows(), before);
    });

    it('a confirmed setup is kept while newer ones retire the oldest', async () => {
      const m = await newMember(h, 'setup-kept');
      const card = await addCard(m, '4242424242424242');
      for (let i = 0; i < MAX_OPEN_SETUP_INTENTS + 3; i++) {
        ok(await m.browser.post('/me/commerce/payment_sources/initialize', { gateway: 'stripe' }));
      }
      const payer = (
        await h.db.query<{ id: string }>(`SELECT id FROM billing_payers WHERE user_id = $1`, [m.userId])
      )[0]!;
      assert.equal(
        await h.count('billing_setup_intents', 'payer_id = $1 AND payment_method_ref IS NULL', [payer.id]),
        MAX_OPEN_SETUP_INTENTS,
      );
      assert.equal(
        await h.count('billing_setup_intents', 'payer_id = $1 AND payment_method_ref IS NOT NULL', [
          payer.id,
        ]),
        1,
      );
      // The saved card still pays (its charge reads the card through the confirmed setup).
      const paid = ok(await m.browser.post('/me/commerce/checkouts', { plan_id: 'cplan_pro_user' })).response;
      const done = ok(
        await m.browser.patch(`/me/commerce/checkouts/${paid.id}/confirm`, { payment_source_id: card.id }),
      ).response;
      assert.equal(done.status, 'completed');
    });

    it('adding payment methods is limited per payer', async () => {
      const m = await newMember(h, 'add-flood');
      await fillWindow(`billing:add_source:payer:user:${m.userId}`, BILLING_LIMITS.addSourcePerPayer - 1);
      await addCard(m, '4242424242424242');
      const init = ok(await m.browser.post('/me/commerce/payment_sources/initialize', { gateway: 'stripe' }));
      const confirmed = await h.browser().post('/commerce/offline_gateway/setup_intents/confirm', {
        client_secret: init.response.external_client_secret,
        card_number: '5555555555554444',
        exp_month: '12',
        exp_year: '2040',
        cvc: '123',
      });
      const before = await billingRows();
      assertLimited(
        await m.browser.post('/me/commerce/payment_sources', {
          gateway: 'stripe',
          payment_token: confirmed.body.payment_method,
        }),
      );
      assert.equal(await billingRows(), before);
    });

    it(`a payer holds at most ${MAX_LIVE_PAYMENT_SOURCES} payment methods`, async () => {
      const m = await newMember(h, 'source-cap');
      const first = await addCard(m, '4242424242424242');
      const payer = (
        await h.db.query<{ id: string }>(`SELECT id FROM billing_payers WHERE user_id = $1`, [m.userId])
      )[0]!;
      // The others as earlier adds would have left them.
      for (let i = 1; i < MAX_LIVE_PAYMENT_SOURCES; i++) {
        await h.db.query(
          `INSERT INTO billing_payment_sources (id, payer_id, gateway, gateway_ref, last4, created_at)
           VALUES ($1, $2, 'offline', $3, '4242', $4)`,
          [
            `cps_cap${i}_${m.userId.slice(-6)}`,
            payer.id,
            `pm_offline_cap${i}${m.userId.slice(-6)}`,
            h.clock.now,
          ],
        );
      }
      const init = ok(await m.browser.post('/me/commerce/payment_sources/initialize', { gateway: 'stripe' }));
      const confirmed = await h.browser().post('/commerce/offline_gateway/setup_intents/confirm', {
        client_secret: init.response.external_client_secret,
        card_number: '5555555555554444',
        exp_month: '12',
        exp_year: '2040',
        cvc: '123',
      });
      const token = confirmed.body.payment_method;
      const before = await billingRows();
      assertError(
        await m.browser.post('/me/commerce/payment_sources', { gateway: 'stripe', payment_token: token }),
        422,
        'payment_source_limit_reached',
      );
      assert.equal(await billingRows(), before);
      // Removing one makes room.
      ok(await m.browser.delete(`/me/commerce/payment_sources/${first.id}`));
      ok(await m.browser.post('/me/commerce/payment_sources', { gateway: 'stripe', payment_token: token }));
    });

    it('removing and making default are limited per payer', async () => {
      const m = await newMember(h, 'change-flood');
      const a = await addCard(m, '4242424242424242');
      const b = await addCard(m, '5555555555554444');
      await fillWindow(`billing:change_source:payer:user:${m.userId}`, BILLING_LIMITS.changeSourcePerPayer);
      const before = await billingRows();
      assertLimited(
        await m.browser.call('PUT', '/me/commerce/payers/default_payment_source', {
          payment_source_id: b.id,
        }),
      );
      assertLimited(await m.browser.delete(`/me/commerce/payment_sources/${a.id}`));
      assert.equal(await billingRows(), before);
    });

    it('canceling subscription items is limited per payer', async () => {
      const m = await newMember(h, 'cancel-flood');
      await fillWindow(`billing:cancel_item:payer:user:${m.userId}`, BILLING_LIMITS.cancelItemPerPayer);
      const sub = ok(await m.browser.get('/me/commerce/subscription')).response;
      const before = await billingRows();
      assertLimited(
        await m.browser.delete(`/me/commerce/subscription_items/${sub.subscription_items[0].id}`),
      );
      assert.equal(await billingRows(), before);
    });
  });

  describe('malformed input', () => {
    it('ids and fields of the wrong shape are 4xx before any query, and change nothing', async () => {
      const m = await newMember(h, 'malformed');
      const before = await billingRows();
      const bad = ['x'.repeat(65), "cco_1'; DROP TABLE users;--", 'a b', '%00', 'é'];
      for (const id of bad) {
        const enc = encodeURIComponent(id);
        for (const res of [
          await m.browser.patch(`/me/commerce/checkouts/${enc}/confirm`, {}),
          await m.browser.delete(`/me/commerce/payment_sources/${enc}`),
          await m.browser.delete(`/me/commerce/subscription_items/${enc}`),
          await m.browser.get(`/me/commerce/statements/${enc}`),
          await m.browser.get(`/me/commerce/payment_attempts/${enc}`),
          await m.browser.get(`/commerce/plans/${enc}`),
        ]) {
          assert.equal(res.status, 404, `${id}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.errors[0].code, 'resource_not_found');
        }
        assertError(
          await m.browser.post('/me/commerce/checkouts', { plan_id: id }),
          404,
          'resource_not_found',
        );
        assertError(
          await m.browser.call('PUT', '/me/commerce/payers/default_payment_source', {
            payment_source_id: id,
          }),
          404,
          'resource_not_found',
        );
        assertError(
          await m.browser.post('/me/commerce/payment_sources', { gateway: 'stripe', payment_token: id }),
          422,
          'form_param_value_invalid',
          'payment_token',
        );
      }
      assertError(
        await m.browser.post('/me/commerce/checkouts', {
          plan_id: 'cplan_pro_user',
          plan_period: 'x'.repeat(5000),
        }),
        422,
        'form_param_value_invalid',
        'plan_period',
      );
      assertError(
        await m.browser.post('/me/commerce/payment_sources/initialize', { gateway: 'paypal' }),
        422,
        'form_param_value_invalid',
        'gateway',
      );
      assert.equal(await billingRows(), before);
    });
  });

  describe('the first look at a subscription', () => {
    it('concurrent first reads for one payer make one subscription with one default item', async () => {
      const admin = await newMember(h, 'first-look');
      const org = await createOrganization(admin, 'First Look');
      const members = [admin];
      for (let i = 0; i < 3; i++) {
        const m = await newMember(h, `first-look-${i}`);
        await addMember(admin, org.id, m, 'org:member');
        members.push(m);
      }
      const answers = await Promise.all(
        [...members, ...members].map((m) => m.browser.get(`/organizations/${org.id}/commerce/subscription`)),
      );
      for (const res of answers) assert.equal(ok(res).response.subscription_items.length, 1);
      const ids = new Set(answers.map((res) => res.body.response.id));
      assert.equal(ids.size, 1, 'every answer names the same subscription');
      const payers = await h.db.query<{ id: string }>(
        `SELECT id FROM billing_payers WHERE organization_id = $1`,
        [org.id],
      );
      assert.equal(payers.length, 1);
      assert.equal(await h.count('billing_subscriptions', 'payer_id = $1', [payers[0]!.id]), 1);
      assert.equal(await h.count('billing_subscription_items', 'payer_id = $1', [payers[0]!.id]), 1);
    });

    it('an outsider’s first look makes nothing', async () => {
      const admin = await newMember(h, 'look-owner');
      const outsider = await newMember(h, 'look-outsider');
      const org = await createOrganization(admin, 'Not Yours');
      const before = await billingRows();
      assertError(
        await outsider.browser.get(`/organizations/${org.id}/commerce/subscription`),
        404,
        'resource_not_found',
      );
      assert.equal(await billingRows(), before);
    });
  });
});
