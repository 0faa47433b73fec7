import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import Stripe from 'stripe';
import {
  createStripeGateway,
  type StripeGateway,
  type StripeGatewaySettings,
} from '../src/billing/gateways/stripe-gateway.ts';
import { GatewayUnavailableError, type GatewayPayer } from '../src/billing/gateways/payment-gateway.ts';
import { STRIPE_WEBHOOK_PATH } from '../src/billing/gateways/stripe-webhook.ts';
import { randomBytes } from 'node:crypto';
import { insertPayerIfAbsent, insertPaymentSource } from '../src/store/billing-payers.ts';
import {
  ensureStatement,
  insertPaymentAttempt,
  setAttemptGatewayRef,
} from '../src/store/billing-payments.ts';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { FAPI, Harness, uniqueEmail } from './support/harness.ts';
import { StripeStandIn } from './support/stripe-stand-in.ts';
import { BILLING, enableBilling, ok, subscribe, subscriptionOf } from './support/billing-world.ts';
import { newMember, type Member } from './support/organizations.ts';

/**
 * Billing's Stripe gateway (docs/billing.md § Stripe) through stripe-node against a local stand-in of
 * Stripe's API: the requests it sends (amounts in minor units, off-session confirms, idempotency keys),
 * what it answers for a payer's own card, another payer's, a decline and Stripe being down; and the
 * webhook route, which acts only on deliveries signed with the endpoint's secret within 300 s.
 */

const SECRET_KEY = 'sk_test_standin0000000000000000';
const WEBHOOK_SECRET = 'whsec_standin0000000000000000000';
const ENV = {
  BILLING_TEST_STRIPE_SECRET_KEY: SECRET_KEY,
  BILLING_TEST_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
};

function stripeSettings(apiBase: string): StripeGatewaySettings {
  return {
    kind: 'stripe',
    publishableKey: 'pk_test_standin',
    accountId: 'acct_standin',
    secretKey: { env: 'BILLING_TEST_STRIPE_SECRET_KEY' },
    webhookSecret: { env: 'BILLING_TEST_STRIPE_WEBHOOK_SECRET' },
    apiBase,
  };
}

let payerSeq = 0;
function newPayer(customerId: string | null = null): GatewayPayer {
  return { payerId: `cpayer_test${++payerSeq}`, customerId, email: 'ada@example.com', name: 'Ada Lovelace' };
}

describe('Stripe gateway against a stand-in of Stripe', () => {
  let stripe: StripeStandIn;
  let gateway: StripeGateway;

  before(async () => {
    stripe = await StripeStandIn.start(SECRET_KEY);
    gateway = createStripeGateway(stripeSettings(stripe.apiBase), ENV);
  });
  after(() => stripe.close());
  beforeEach(() => {
    stripe.failWith = null;
  });

  /** A payer with a customer and a card confirmed in the browser (Stripe.js), as billing keeps them. */
  async function payerWithCard(card: { declines?: boolean } = {}) {
    const payer = newPayer();
    const setup = await gateway.initializeSetup(payer);
    payer.customerId = setup.customerId;
    const token = stripe.confirmSetup(setup.setupIntentId, card);
    const method = await gateway.attachPaymentMethod(payer, token);
    assert.ok(method, "the payer's own card is accepted");
    return { payer, method };
  }

  it('reads its secret key from the variable the settings name, when first calling Stripe', async () => {
    assert.equal(gateway.kind, 'stripe');
    assert.equal(gateway.publishableKey, 'pk_test_standin');
    // Without the variable the publishable key (the environment clerk-js loads) still answers; a call
    // fails as the gateway being unavailable, naming the variable, and nothing reaches Stripe.
    const unset = createStripeGateway(stripeSettings(stripe.apiBase), {});
    assert.equal(unset.publishableKey, 'pk_test_standin');
    const before = stripe.requests.length;
    await assert.rejects(unset.initializeSetup(newPayer()), (err: Error) => {
      assert.ok(err instanceof GatewayUnavailableError);
      assert.match(err.message, /BILLING_TEST_STRIPE_SECRET_KEY/);
      return true;
    });
    await assert.rejects(unset.attachPaymentMethod(newPayer('cus_x'), 'pm_x'), GatewayUnavailableError);
    assert.equal(stripe.requests.length, before);
  });

  it('initializeSetup makes the customer once, then a card SetupIntent for off-session use', async () => {
    const payer = newPayer();
    const before = stripe.requests.length;
    const setup = await gateway.initializeSetup(payer);
    const [customerReq, setupReq] = stripe.requests.slice(before);
    assert.equal(customerReq!.path, '/v1/customers');
    assert.equal(customerReq!.authorization, `Bearer ${SECRET_KEY}`);
    assert.equal(customerReq!.stripeAccount, 'acct_standin');
    assert.equal(setupReq!.stripeAccount, 'acct_standin');
    assert.deepEqual(customerReq!.form, {
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      metadata: { payer_id: payer.payerId },
    });
    assert.match(customerReq!.idempotencyKey ?? '', new RegExp(`^customer-${payer.payerId}-`));
    assert.equal(setupReq!.path, '/v1/setup_intents');
    assert.equal(setupReq!.form.usage, 'off_session');
    assert.deepEqual(setupReq!.form.allowed_payment_method_types, ['card']);
    assert.match(setup.customerId ?? '', /^cus_/);
    assert.equal(setupReq!.form.customer, setup.customerId);
    const intent = stripe.setupIntents.get(setup.setupIntentId);
    assert.ok(intent);
    assert.equal(setup.clientSecret, intent.client_secret);
    assert.equal(setup.gatewayAccountId, 'acct_standin');
    assert.deepEqual(setup.paymentMethodOrder, ['card']);

    // Known customer: no second one; the answer says no customer was made.
    const again = await gateway.initializeSetup({ ...payer, customerId: setup.customerId });
    assert.equal(again.customerId, null);
    assert.notEqual(again.setupIntentId, setup.setupIntentId);
    assert.equal(
      stripe.requestsTo('POST', '/v1/customers').filter((r) => r.form.metadata?.payer_id === payer.payerId)
        .length,
      1,
    );
    // Two first setups at once (two tabs): one customer at Stripe, by the idempotency key.
    const racing = newPayer();
    const [a, b] = await Promise.all([gateway.initializeSetup(racing), gateway.initializeSetup(racing)]);
    assert.equal(a.customerId, b.customerId);
  });

  it("attachPaymentMethod takes the payer's own confirmed card and nobody else's", async () => {
    const { payer, method } = await payerWithCard();
    assert.equal(method.paymentMethod, 'card');
    assert.equal(method.cardType, 'visa');
    assert.equal(method.last4, '4242');
    assert.equal(method.walletType, null);
    assert.match(method.ref, /^pm_/);

    // Another payer presenting this payer's card token.
    const other = await payerWithCard();
    assert.equal(await gateway.attachPaymentMethod(other.payer, method.ref), null);
    // A payer with no customer yet, an unknown method, a malformed token (no request is made for it).
    assert.equal(await gateway.attachPaymentMethod(newPayer(), method.ref), null);
    assert.equal(await gateway.attachPaymentMethod(payer, 'pm_doesnotexist'), null);
    const before = stripe.requests.length;
    for (const token of ['pm_../../v1/customers', 'seti_123', '', 'pm_' + 'x'.repeat(500)]) {
      assert.equal(await gateway.attachPaymentMethod(payer, token), null);
    }
    assert.equal(stripe.requests.length, before);
  });

  it('charge confirms an off-session PaymentIntent, once per idempotency key', async () => {
    const { payer, method } = await payerWithCard();
    const request = {
      payer,
      paymentMethodRef: method.ref,
      amount: 2599,
      currency: 'usd',
      idempotencyKey: `charge-test-${payerSeq}`,
      description: 'Pro (monthly)',
    };
    const first = await gateway.charge(request);
    assert.equal(first.status, 'paid');
    const [sent] = stripe.requestsTo('POST', '/v1/payment_intents').slice(-1);
    assert.equal(sent!.idempotencyKey, request.idempotencyKey);
    assert.equal(sent!.authorization, `Bearer ${SECRET_KEY}`);
    assert.equal(sent!.form.amount, '2599');
    assert.equal(sent!.form.currency, 'usd');
    assert.equal(sent!.form.customer, payer.customerId);
    assert.equal(sent!.form.payment_method, method.ref);
    assert.equal(sent!.form.off_session, 'true');
    assert.equal(sent!.form.confirm, 'true');
    assert.equal(sent!.form.description, 'Pro (monthly)');

    const intents = stripe.paymentIntents.size;
    const again = await gateway.charge(request);
    assert.deepEqual(again, first, 'the same key answers the first charge');
    assert.equal(stripe.paymentIntents.size, intents, 'and makes no second PaymentIntent');
    const other = await gateway.charge({ ...request, idempotencyKey: `${request.idempotencyKey}-next` });
    assert.equal(other.status, 'paid');
    assert.equal(stripe.paymentIntents.size, intents + 1);
    assert.notEqual(other.status === 'paid' && other.ref, first.status === 'paid' && first.ref);
  });

  it('a declined card is a failed charge with its decline code, not an exception', async () => {
    const { payer, method } = await payerWithCard({ declines: true });
    const outcome = await gateway.charge({
      payer,
      paymentMethodRef: method.ref,
      amount: 1000,
      currency: 'eur',
      idempotencyKey: `decline-${payerSeq}`,
      description: 'Pro',
    });
    assert.equal(outcome.status, 'failed');
    assert.equal(outcome.status === 'failed' && outcome.code, 'insufficient_funds');
    assert.match(outcome.ref ?? '', /^pi_/);
  });

  it("charging with another payer's card fails at Stripe and charges nothing", async () => {
    const mine = await payerWithCard();
    const theirs = await payerWithCard();
    const intents = stripe.paymentIntents.size;
    const outcome = await gateway.charge({
      payer: mine.payer,
      paymentMethodRef: theirs.method.ref,
      amount: 1000,
      currency: 'usd',
      idempotencyKey: `cross-${payerSeq}`,
      description: 'Pro',
    });
    assert.equal(outcome.status, 'failed');
    assert.equal(stripe.paymentIntents.size, intents);
  });

  it('Stripe down (5xx) or refusing the key is GatewayUnavailableError, for every call', async () => {
    const { payer, method } = await payerWithCard();
    const paid = await gateway.charge({
      payer,
      paymentMethodRef: method.ref,
      amount: 500,
      currency: 'usd',
      idempotencyKey: `down-paid-${payerSeq}`,
      description: 'Pro',
    });
    assert.equal(paid.status, 'paid');
    stripe.failWith = 500;
    const intents = stripe.paymentIntents.size;
    const charge = {
      payer,
      paymentMethodRef: method.ref,
      amount: 500,
      currency: 'usd',
      idempotencyKey: `down-${payerSeq}`,
      description: 'Pro',
    };
    await assert.rejects(gateway.charge(charge), GatewayUnavailableError);
    await assert.rejects(gateway.initializeSetup(newPayer()), GatewayUnavailableError);
    await assert.rejects(
      gateway.refund({
        chargeRef: paid.status === 'paid' ? paid.ref : '',
        amount: 500,
        idempotencyKey: 'r-down',
      }),
      GatewayUnavailableError,
    );
    await assert.rejects(gateway.detachPaymentMethod(method.ref), GatewayUnavailableError);
    await assert.rejects(gateway.attachPaymentMethod(payer, method.ref), GatewayUnavailableError);
    assert.equal(stripe.paymentIntents.size, intents);
    // Back up: the same key charges once.
    stripe.failWith = null;
    assert.equal((await gateway.charge(charge)).status, 'paid');
    assert.equal(stripe.paymentIntents.size, intents + 1);

    const wrongKey = createStripeGateway(stripeSettings(stripe.apiBase), {
      ...ENV,
      BILLING_TEST_STRIPE_SECRET_KEY: 'sk_test_wrong',
    });
    await assert.rejects(
      wrongKey.charge({ ...charge, idempotencyKey: `wrong-key-${payerSeq}` }),
      (err: Error) => {
        assert.ok(err instanceof GatewayUnavailableError);
        assert.doesNotMatch(err.message, /sk_test/, 'no key in the message');
        return true;
      },
    );
  });

  it('refunds with an idempotency key, once; detaches a removed card (again: harmless)', async () => {
    const { payer, method } = await payerWithCard();
    const paid = await gateway.charge({
      payer,
      paymentMethodRef: method.ref,
      amount: 4000,
      currency: 'usd',
      idempotencyKey: `refund-charge-${payerSeq}`,
      description: 'Pro',
    });
    assert.equal(paid.status, 'paid');
    const chargeRef = paid.status === 'paid' ? paid.ref : '';
    const refunds = stripe.refunds.size;
    const refund = await gateway.refund({ chargeRef, amount: 1500, idempotencyKey: `refund-${payerSeq}` });
    assert.match(refund.ref, /^re_/);
    const [sent] = stripe.requestsTo('POST', '/v1/refunds').slice(-1);
    assert.deepEqual(sent!.form, { payment_intent: chargeRef, amount: '1500' });
    assert.equal(sent!.idempotencyKey, `refund-${payerSeq}`);
    assert.deepEqual(
      await gateway.refund({ chargeRef, amount: 1500, idempotencyKey: `refund-${payerSeq}` }),
      refund,
    );
    assert.equal(stripe.refunds.size, refunds + 1);

    await gateway.detachPaymentMethod(method.ref);
    assert.equal(stripe.paymentMethods.get(method.ref)!.customer, null);
    await gateway.detachPaymentMethod(method.ref);
    assert.equal(
      await gateway.attachPaymentMethod(payer, method.ref),
      null,
      "a detached card is no longer the payer's",
    );
  });
});

forEachBackend('Stripe webhook route', (backend) => {
  let h: Harness;
  const url = `${FAPI}${STRIPE_WEBHOOK_PATH}`;

  before(async () => {
    Object.assign(process.env, ENV);
    h = await Harness.start(backend);
  });
  after(() => h.close());

  async function useGateway(gateway: Record<string, unknown> | null) {
    const { billing: _old, ...rest } = h.identity.settings.settings;
    await h.identity.settings.set(gateway ? { ...rest, billing: { gateway } } : rest);
  }

  function event(type: string, object: Record<string, unknown>): string {
    return JSON.stringify({
      id: `evt_${Math.random().toString(36).slice(2)}`,
      object: 'event',
      api_version: '2025-01-01',
      created: Math.floor(h.clock.now.getTime() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    });
  }

  function deliver(
    payload: string,
    opts: { secret?: string; signedAt?: number; body?: string; signature?: string | null } = {},
  ) {
    const signature =
      opts.signature === undefined
        ? Stripe.webhooks.generateTestHeaderString({
            payload,
            secret: opts.secret ?? WEBHOOK_SECRET,
            timestamp: opts.signedAt ?? Math.floor(h.clock.now.getTime() / 1000),
          })
        : opts.signature;
    return h.app.inject({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        ...(signature === null ? {} : { 'stripe-signature': signature }),
      },
      payload: opts.body ?? payload,
    });
  }

  it('is not served unless billing uses the Stripe gateway', async () => {
    await useGateway(null);
    const payload = event('payment_method.detached', { id: 'pm_x', object: 'payment_method' });
    assert.equal((await deliver(payload)).statusCode, 404);
    await useGateway({ kind: 'offline' });
    const res = await deliver(payload);
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().errors[0].code, 'resource_not_found');
  });

  it('acknowledges a signed event, and one it does not follow', async () => {
    await useGateway(stripeSettings('http://127.0.0.1:9'));
    const detached = await deliver(
      event('payment_method.detached', { id: 'pm_unknown', object: 'payment_method' }),
    );
    assert.equal(detached.statusCode, 200, detached.body);
    assert.deepEqual(detached.json(), { received: true });
    const other = await deliver(event('customer.created', { id: 'cus_x', object: 'customer' }));
    assert.equal(other.statusCode, 200, other.body);
  });

  it('refuses a wrong signature, an old one, a changed body or none: 400', async () => {
    await useGateway(stripeSettings('http://127.0.0.1:9'));
    const payload = event('payment_intent.succeeded', { id: 'pi_forged', object: 'payment_intent' });
    const now = Math.floor(h.clock.now.getTime() / 1000);
    const refusals = [
      await deliver(payload, { secret: 'whsec_someoneelse' }),
      await deliver(payload, { signedAt: now - 301 }),
      await deliver(payload, { body: payload.replace('pi_forged', 'pi_forgedX') }),
      await deliver(payload, { signature: null }),
      await deliver(payload, { signature: 't=1,v1=00' }),
      await deliver(payload, { body: '' }),
    ];
    for (const res of refusals) {
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().errors[0].code, 'request_body_invalid');
    }
    // Within the tolerance, the same delivery is taken.
    assert.equal((await deliver(payload, { signedAt: now - 290 })).statusCode, 200);
  });

  const rand = () => randomBytes(8).toString('hex');

  /** A user's payer with a saved Stripe card and a charge still pending at Stripe (settled by its event). */
  async function pendingCharge() {
    const { userId } = await signUp(h, h.browser(), uniqueEmail('stripe-webhook'));
    const now = h.clock.now;
    const cardRef = `pm_${rand()}`;
    const chargeRef = `pi_${rand()}`;
    const ids = await h.db.transaction(async (tx) => {
      const payer = await insertPayerIfAbsent(tx, { id: `cpayer_${rand()}`, key: { userId }, now });
      const source = await insertPaymentSource(tx, {
        id: `cps_${rand()}`,
        payerId: payer.id,
        gateway: 'stripe',
        gatewayRef: cardRef,
        paymentMethod: 'card',
        cardType: 'visa',
        last4: '4242',
        walletType: null,
        now,
      });
      const statement = await ensureStatement(tx, { id: `cstmt_${rand()}`, payerId: payer.id, now });
      const attempt = await insertPaymentAttempt(tx, {
        id: `cpa_${rand()}`,
        payerId: payer.id,
        statementId: statement.id,
        subscriptionItemId: null,
        paymentSourceId: source!.id,
        chargeType: 'checkout',
        amount: 2000,
        currency: 'usd',
        idempotencyKey: `webhook-test-${rand()}`,
        now,
      });
      await setAttemptGatewayRef(tx, attempt.id, chargeRef);
      return { attemptId: attempt.id, sourceId: source!.id };
    });
    return { ...ids, cardRef, chargeRef };
  }

  async function attempt(id: string) {
    const [row] = await h.db.query<{ status: string; failure_code: string | null }>(
      'SELECT status, failure_code FROM billing_payment_attempts WHERE id = $1',
      [id],
    );
    return row;
  }

  async function everything() {
    return {
      attempts: await h.db.query('SELECT id, status, failure_code FROM billing_payment_attempts ORDER BY id'),
      sources: await h.db.query('SELECT id, status, removed_at FROM billing_payment_sources ORDER BY id'),
      ledger: await h.count('billing_ledger'),
      subscriptions: await h.db.query('SELECT id, status FROM billing_subscription_items ORDER BY id'),
    };
  }

  it('a signed payment_intent.succeeded settles the pending charge; a replay changes nothing more', async () => {
    await useGateway(stripeSettings('http://127.0.0.1:9'));
    const charge = await pendingCharge();
    const payload = event('payment_intent.succeeded', {
      id: charge.chargeRef,
      object: 'payment_intent',
      status: 'succeeded',
      amount: 2000,
      currency: 'usd',
    });
    const before = await everything();
    assert.equal((await deliver(payload, { secret: 'whsec_forger' })).statusCode, 400);
    assert.equal((await deliver(payload, { body: payload.replace('2000', '1') })).statusCode, 400);
    assert.deepEqual(await everything(), before, 'a refused delivery changes nothing');
    assert.equal((await attempt(charge.attemptId))?.status, 'pending');

    const res = await deliver(payload);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await attempt(charge.attemptId))?.status, 'paid');
    const settled = await everything();
    // Stripe delivers at least once: the same event again (and again, signed later) is harmless.
    assert.equal((await deliver(payload)).statusCode, 200);
    h.clock.advance(60);
    assert.equal((await deliver(payload)).statusCode, 200);
    assert.deepEqual(await everything(), settled);
  });

  it('a signed payment_intent.payment_failed fails the pending charge with its decline code', async () => {
    await useGateway(stripeSettings('http://127.0.0.1:9'));
    const charge = await pendingCharge();
    const payload = event('payment_intent.payment_failed', {
      id: charge.chargeRef,
      object: 'payment_intent',
      status: 'requires_payment_method',
      last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds' },
    });
    const res = await deliver(payload);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      { ...(await attempt(charge.attemptId)) },
      { status: 'failed', failure_code: 'insufficient_funds' },
    );
    // The same event again: acknowledged, nothing moves.
    const failed = await everything();
    assert.equal((await deliver(payload)).statusCode, 200);
    assert.deepEqual(await everything(), failed);
  });

  it('a signed payment_method.detached disconnects the saved card', async () => {
    await useGateway(stripeSettings('http://127.0.0.1:9'));
    const charge = await pendingCharge();
    const forged = event('payment_method.detached', { id: charge.cardRef, object: 'payment_method' });
    assert.equal(
      (await deliver(forged, { signedAt: Math.floor(h.clock.now.getTime() / 1000) - 3600 })).statusCode,
      400,
    );
    const [kept] = await h.db.query<{ status: string }>(
      'SELECT status FROM billing_payment_sources WHERE id = $1',
      [charge.sourceId],
    );
    assert.equal(kept?.status, 'active');
    assert.equal((await deliver(forged)).statusCode, 200);
    const [row] = await h.db.query<{ status: string }>(
      'SELECT status FROM billing_payment_sources WHERE id = $1',
      [charge.sourceId],
    );
    assert.equal(row?.status, 'disconnected');
  });

  it('a signed body that is no usable event: not JSON is 400, an event without ids is ignored', async () => {
    await useGateway(stripeSettings('http://127.0.0.1:9'));
    const before = await everything();
    assert.equal((await deliver('not json at all')).statusCode, 400);
    for (const object of [{ id: 123 }, null, { object: 'payment_intent' }]) {
      const payload = JSON.stringify({
        id: 'evt_x',
        object: 'event',
        type: 'payment_intent.succeeded',
        data: { object },
      });
      assert.equal((await deliver(payload)).statusCode, 200);
    }
    assert.deepEqual(await everything(), before);
  });

  it('refuses an oversized body before reading it', async () => {
    await useGateway(stripeSettings('http://127.0.0.1:9'));
    const res = await deliver('{}', { body: 'x'.repeat(600 * 1024) });
    assert.equal(res.statusCode, 413);
  });
});

forEachBackend('billing through Stripe, as clerk-js calls it', (backend) => {
  let h: Harness;
  let stripe: StripeStandIn;

  before(async () => {
    Object.assign(process.env, ENV);
    stripe = await StripeStandIn.start(SECRET_KEY);
    h = await Harness.start(backend);
    await enableBilling(h, { ...BILLING, gateway: stripeSettings(stripe.apiBase) });
  });
  after(async () => {
    await h.close();
    await stripe.close();
  });

  /** The card form: initialize, Stripe.js confirms the setup in the browser, the token is added. */
  async function addCard(member: Member, card: { declines?: boolean } = {}) {
    const init = ok(await member.browser.post('/me/commerce/payment_sources/initialize')).response;
    const intent = [...stripe.setupIntents.values()].find(
      (i) => i.client_secret === init.external_client_secret,
    );
    assert.ok(intent, "the client secret is the SetupIntent's");
    assert.equal(init.external_gateway_id, 'acct_standin');
    const token = stripe.confirmSetup(intent.id, card);
    return {
      token,
      res: await member.browser.post('/me/commerce/payment_sources', {
        gateway: 'stripe',
        payment_token: token,
      }),
    };
  }

  it("adds a card through a SetupIntent of the payer's own customer; another payer's token is refused", async () => {
    const ada = await newMember(h, 'stripe-ada', { firstName: 'Ada', lastName: 'Lovelace' });
    const { token, res } = await addCard(ada);
    const source = ok(res).response;
    assert.equal(source.last4, '4242');
    assert.equal(source.card_type, 'visa');
    const [customer] = stripe.requestsTo('POST', '/v1/customers').slice(-1);
    assert.equal(customer!.form.email, ada.email);
    const [payer] = await h.db.query<{ gateway_customer_id: string }>(
      'SELECT gateway_customer_id FROM billing_payers WHERE user_id = $1',
      [ada.userId],
    );
    assert.equal(stripe.paymentMethods.get(token)!.customer, payer!.gateway_customer_id);

    const eve = await newMember(h, 'stripe-eve');
    ok(await eve.browser.post('/me/commerce/payment_sources/initialize'));
    const sources = await h.count('billing_payment_sources');
    const stolen = await eve.browser.post('/me/commerce/payment_sources', {
      gateway: 'stripe',
      payment_token: token,
    });
    assert.ok(stolen.status >= 400 && stolen.status < 500, JSON.stringify(stolen.body));
    assert.equal(await h.count('billing_payment_sources'), sources);
  });

  it('a checkout charges the saved card off-session, once, and a declined card subscribes nothing', async () => {
    const grace = await newMember(h, 'stripe-grace');
    const source = ok((await addCard(grace)).res).response;
    const intents = stripe.paymentIntents.size;
    const item = await subscribe(grace, 'cplan_pro_user', { paymentSourceId: source.id });
    assert.equal(item.status, 'completed', JSON.stringify(item));
    assert.equal(stripe.paymentIntents.size, intents + 1);
    const [charge] = stripe.requestsTo('POST', '/v1/payment_intents').slice(-1);
    assert.equal(charge!.form.amount, '1000');
    assert.equal(charge!.form.currency, 'usd');
    assert.equal(charge!.form.off_session, 'true');
    assert.equal(charge!.form.confirm, 'true');
    assert.ok(charge!.idempotencyKey, 'an Idempotency-Key is sent');
    const [attempt] = await h.db.query<{ status: string; gateway_ref: string; idempotency_key: string }>(
      `SELECT a.status, a.gateway_ref, a.idempotency_key FROM billing_payment_attempts a
         JOIN billing_payers p ON p.id = a.payer_id WHERE p.user_id = $1`,
      [grace.userId],
    );
    assert.equal(attempt!.status, 'paid');
    assert.equal(attempt!.idempotency_key, charge!.idempotencyKey);
    assert.ok(stripe.paymentIntents.has(attempt!.gateway_ref));
    const subscription = await subscriptionOf(grace);
    assert.ok(JSON.stringify(subscription).includes('cplan_pro_user'));

    const hopper = await newMember(h, 'stripe-hopper');
    const declining = ok((await addCard(hopper, { declines: true })).res).response;
    const started = ok(
      await hopper.browser.post('/me/commerce/checkouts', {
        plan_id: 'cplan_pro_user',
        plan_period: 'month',
      }),
    ).response;
    const declined = await hopper.browser.patch(`/me/commerce/checkouts/${started.id}/confirm`, {
      payment_source_id: declining.id,
    });
    assert.equal(declined.status, 402, JSON.stringify(declined.body));
    assert.equal(declined.body.errors[0].code, 'insufficient_funds');
    const [failed] = await h.db.query<{ status: string }>(
      `SELECT a.status FROM billing_payment_attempts a JOIN billing_payers p ON p.id = a.payer_id
        WHERE p.user_id = $1`,
      [hopper.userId],
    );
    assert.equal(failed?.status, 'failed');
  });

  it('Stripe down: adding a card is 502 payment_gateway_unavailable and changes nothing', async () => {
    const alan = await newMember(h, 'stripe-alan');
    stripe.failWith = 503;
    try {
      const before = await h.count('billing_payment_sources');
      const res = await alan.browser.post('/me/commerce/payment_sources/initialize');
      assert.equal(res.status, 502, JSON.stringify(res.body));
      assert.equal(res.body.errors[0].code, 'payment_gateway_unavailable');
      assert.equal(await h.count('billing_payment_sources'), before);
    } finally {
      stripe.failWith = null;
    }
  });
});
