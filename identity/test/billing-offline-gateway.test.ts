import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { initializePaymentSource, listPaymentSources } from '../src/billing/payment-sources.ts';
import { forEachBackend } from './support/backends.ts';
import { BILLING, confirmCard, enableBilling, newPayer } from './support/billing.ts';
import { Harness } from './support/harness.ts';

/**
 * The offline gateway's card form endpoint (POST /v1/commerce/offline_gateway/setup_intents/confirm):
 * field checks in Clerk's envelope, one confirmation per setup intent, only the secret's hash and the last
 * four digits kept, and no endpoint when billing is off.
 */
forEachBackend('billing offline gateway', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
    await enableBilling(h);
  });
  after(() => h.close());

  const PATH = '/commerce/offline_gateway/setup_intents/confirm';
  const form = (secret: string, over: Record<string, string> = {}) => ({
    client_secret: secret,
    card_number: '4242 4242 4242 4242',
    exp_month: '12',
    exp_year: '2040',
    cvc: '123',
    ...over,
  });

  it('confirms a setup intent once; malformed fields are 422s naming the field', async () => {
    const p = await newPayer(h, 'offline');
    const setup = await initializePaymentSource(h.identity.deps, p.ref, h.clock.now);
    assert.match(setup.clientSecret, /^seti_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/);
    assert.equal(h.identity.deps.billing.gateway().publishableKey, 'pk_test_offline');
    const bad: [Record<string, string>, string][] = [
      [{ card_number: '4242424242424241' }, 'card_number'],
      [{ card_number: '42' }, 'card_number'],
      [{ card_number: 'x'.repeat(5000) }, 'card_number'],
      [{ exp_month: '13' }, 'exp_month'],
      [{ exp_year: '2001' }, 'exp_year'],
      [{ cvc: '12' }, 'cvc'],
      [{ cvc: '' }, 'cvc'],
    ];
    for (const [over, field] of bad) {
      const res = await p.browser.post(PATH, form(setup.clientSecret, over));
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(res.body.errors[0].meta.param_name, field, JSON.stringify(res.body));
    }
    const unknown = await p.browser.post(PATH, form(`${setup.setupIntentId}_secret_wrong`));
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.errors[0].meta.param_name, 'client_secret');
    const pm = await confirmCard(p.browser, setup.clientSecret, '4242424242424242');
    assert.match(pm, /^pm_offline_/);
    // Confirmed once: the same secret again makes nothing more.
    const again = await p.browser.post(PATH, form(setup.clientSecret));
    assert.equal(again.status, 422);
    // The secret is kept hashed, the number not at all.
    const rows = await h.db.query<Record<string, unknown>>(
      `SELECT * FROM billing_setup_intents WHERE id = $1`,
      [setup.setupIntentId],
    );
    const stored = JSON.stringify(rows);
    assert.ok(!stored.includes(setup.clientSecret) && !stored.includes('4242424242424242'));
    assert.equal(rows[0]!.card_last4, '4242');
    assert.equal(
      (await h.db.transaction((t) => listPaymentSources(t, p.ref, { limit: 10, offset: 0 }))).totalCount,
      0,
    );
  });

  it('is not offered when billing is off', async () => {
    await enableBilling(h, { ...BILLING, enabled: false });
    try {
      const p = await newPayer(h, 'off');
      const res = await p.browser.post(PATH, form('seti_x_secret_y'));
      assert.equal(res.status, 404);
    } finally {
      await enableBilling(h);
    }
  });
});
