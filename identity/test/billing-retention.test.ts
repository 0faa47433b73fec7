import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { reconcileLedger } from '../src/billing/ledger.ts';
import { purgeExpired } from '../src/retention/purge.ts';
import { forEachBackend } from './support/backends.ts';
import { Harness, type Json } from './support/harness.ts';
import { assertError, newMember, type Member } from './support/organizations.ts';
import { enableBilling, ok } from './support/billing-world.ts';

const DAY = 24 * 3600;

/**
 * The retention purge's billing rules (retention/rules.ts): a card form's setup intent a day past its
 * expiry goes unless a payment source names its payment method; a checkout never confirmed goes a day
 * after it expired; what a payment attempt, a statement or the ledger still names stays, and billing works
 * on after the purge as before it. Several instances purging at once share the work.
 */
forEachBackend('billing retention', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
    await enableBilling(h);
  });
  after(() => h.close());

  const payerOf = async (m: Member) =>
    (await h.db.query<{ id: string }>(`SELECT id FROM billing_payers WHERE user_id = $1`, [m.userId]))[0]!.id;

  async function setup(m: Member): Promise<string> {
    return ok(await m.browser.post('/me/commerce/payment_sources/initialize', { gateway: 'stripe' })).response
      .external_client_secret;
  }

  async function confirmCard(secret: string, number: string): Promise<string> {
    const res = await h.browser().post('/commerce/offline_gateway/setup_intents/confirm', {
      client_secret: secret,
      card_number: number,
      exp_month: '12',
      exp_year: '2040',
      cvc: '123',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.payment_method;
  }

  async function addCard(m: Member, number: string): Promise<Json> {
    const token = await confirmCard(await setup(m), number);
    return ok(
      await m.browser.post('/me/commerce/payment_sources', { gateway: 'stripe', payment_token: token }),
    ).response;
  }

  const startCheckout = async (m: Member, planId = 'cplan_pro_user') =>
    ok(await m.browser.post('/me/commerce/checkouts', { plan_id: planId })).response;

  it('purges expired setups and unconfirmed checkouts, keeps what payments and the ledger name', async () => {
    const m = await newMember(h, 'retained');
    const good = await addCard(m, '4242424242424242');
    const bad = await addCard(m, '4000000000000002');
    // A setup confirmed but never added, and one never confirmed.
    const unattached = await confirmCard(await setup(m), '5555555555554444');
    await setup(m);
    // A checkout declined (its failed payment attempt names it), one only started, one abandoned when
    // the paid one completed, and the paid one.
    const declined = await startCheckout(m);
    assertError(
      await m.browser.patch(`/me/commerce/checkouts/${declined.id}/confirm`, { payment_source_id: bad.id }),
      402,
      'card_declined',
    );
    const started = await startCheckout(m);
    const paid = await startCheckout(m);
    assert.equal(
      ok(await m.browser.patch(`/me/commerce/checkouts/${paid.id}/confirm`, { payment_source_id: good.id }))
        .response.status,
      'completed',
    );
    const payer = await payerOf(m);
    const checkoutStatus = async () =>
      Object.fromEntries(
        (
          await h.db.query<{ id: string; status: string }>(
            `SELECT id, status FROM billing_checkouts WHERE payer_id = $1`,
            [payer],
          )
        ).map((r) => [r.id, r.status]),
      );
    assert.deepEqual(await checkoutStatus(), {
      [declined.id]: 'abandoned',
      [started.id]: 'abandoned',
      [paid.id]: 'completed',
    });
    const attempts = await h.count('billing_payment_attempts', 'payer_id = $1', [payer]);
    const ledger = await h.count('billing_ledger', 'payer_id = $1', [payer]);
    assert.equal(attempts, 2);

    // Within their lifetime (and the day after) nothing of this payer's goes.
    h.clock.advance(2 * 3600);
    await purgeExpired(h.db, h.clock.now);
    assert.equal(await h.count('billing_setup_intents', 'payer_id = $1', [payer]), 4);
    assert.equal(await h.count('billing_checkouts', 'payer_id = $1', [payer]), 3);

    // Two days on: the unattached and unconfirmed setups and the checkout no payment names go.
    h.clock.advance(2 * DAY);
    await purgeExpired(h.db, h.clock.now);
    const intents = await h.db.query<{ payment_method_ref: string | null }>(
      `SELECT payment_method_ref FROM billing_setup_intents WHERE payer_id = $1`,
      [payer],
    );
    assert.equal(intents.length, 2);
    assert.ok(intents.every((i) => i.payment_method_ref && i.payment_method_ref !== unattached));
    assert.deepEqual(await checkoutStatus(), { [declined.id]: 'abandoned', [paid.id]: 'completed' });
    assert.equal(await h.count('billing_payment_attempts', 'payer_id = $1', [payer]), attempts);
    assert.equal(await h.count('billing_ledger', 'payer_id = $1', [payer]), ledger);
    assert.deepEqual(await reconcileLedger(h.db), []);
    assert.equal(ok(await m.browser.get('/me/commerce/statements')).response.total_count, 1);

    // The saved cards are charged as before (a renewal reads the card through its setup): the declining
    // one still declines, the good one pays.
    const gateway = h.identity.deps.billing.gateway();
    const refs = await h.db.query<{ id: string; gateway_ref: string }>(
      `SELECT id, gateway_ref FROM billing_payment_sources WHERE payer_id = $1`,
      [payer],
    );
    const refOf = (id: string) => refs.find((r) => r.id === id)!.gateway_ref;
    const charge = (ref: string, key: string) =>
      gateway.charge({
        payer: { payerId: payer, customerId: null, email: m.email, name: null },
        paymentMethodRef: ref,
        amount: 1000,
        currency: 'usd',
        idempotencyKey: key,
        description: 'retention test',
      });
    assert.equal((await charge(refOf(good.id), 'retention-good')).status, 'paid');
    assert.equal((await charge(refOf(bad.id), 'retention-bad')).status, 'failed');
    // An unattached token purged cannot be added any more; a fresh card can.
    assertError(
      await m.browser.post('/me/commerce/payment_sources', { gateway: 'stripe', payment_token: unattached }),
      422,
      'form_param_value_invalid',
    );
    await addCard(m, '5555555555554444');
  });

  it('a checkout being confirmed, or one a payment names, is never purged', async () => {
    const m = await newMember(h, 'in-flight');
    const card = await addCard(m, '4242424242424242');
    const checkout = await startCheckout(m);
    await h.db.query(
      `UPDATE billing_checkouts SET confirm_started_at = $2, payment_source_id = $3 WHERE id = $1`,
      [checkout.id, h.clock.now, card.id],
    );
    h.clock.advance(3 * DAY);
    await purgeExpired(h.db, h.clock.now);
    assert.equal(await h.count('billing_checkouts', 'id = $1', [checkout.id]), 1);
  });

  it('two instances purging billing rows at once share the work', async () => {
    const members = [await newMember(h, 'twin-a'), await newMember(h, 'twin-b')];
    for (const m of members) {
      for (let i = 0; i < 12; i++) await startCheckout(m);
      for (let i = 0; i < 12; i++) await setup(m);
    }
    const checkouts = await h.count('billing_checkouts');
    h.clock.advance(2 * DAY);
    const twin = await h.twin();
    try {
      const [a, b] = await Promise.all([purgeExpired(h.db, h.clock.now), purgeExpired(twin.db, h.clock.now)]);
      assert.ok(a.billing_checkouts! + b.billing_checkouts! >= 24);
      assert.equal(
        a.billing_checkouts! + b.billing_checkouts!,
        checkouts - (await h.count('billing_checkouts')),
      );
      for (const m of members) {
        assert.equal(await h.count('billing_checkouts', 'payer_id = $1', [await payerOf(m)]), 0);
      }
      assert.equal(await h.count('billing_setup_intents', 'payment_method_ref IS NULL'), 0);
    } finally {
      await twin.close();
    }
  });
});
