import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createUser } from '../support/backend.ts';
import { drawer, enableBilling, planClaimBecomes, signedIn, team } from '../support/billing.ts';
import { waitForClerkSession } from '../support/flows.ts';
import { useSuite } from '../support/suite.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/**
 * The checkout's state machine and preconditions (spec §4, §5) through clerk-js 5.90.0's own checkout API
 * in the page (`Clerk.__experimental_checkout`, core/modules/checkout/{instance,manager}.ts) against the
 * embedded provider, on the offline gateway: signed out, no active organisation, confirm before start,
 * needs_initialization → needs_confirmation → completed with a saved card, a second confirm charging
 * nothing, clerk-js's invalid_plan_change screens (the plan already active; another plan billed monthly
 * after a plan billed annually), and a member without billing permission.
 */

const BILLING = {
  enabled: true,
  currency: 'usd',
  gateway: { kind: 'offline' },
  features: {},
  plans: {
    free_org: { name: 'Free', payerType: 'org', monthlyFee: 0, isDefault: true },
    pro: { name: 'Pro', payerType: 'org', monthlyFee: 2900 },
    scale: { name: 'Scale', payerType: 'org', monthlyFee: 4900 },
    // The admin's own plans, billed annually too.
    free_user: { name: 'Personal Free', payerType: 'user', monthlyFee: 0, isDefault: true },
    solo: { name: 'Solo', payerType: 'user', monthlyFee: 900, annualMonthlyFee: 700 },
    solo_plus: { name: 'Solo Plus', payerType: 'user', monthlyFee: 1900, annualMonthlyFee: 1500 },
  },
};
// Plan ids are derived from the slugs (identity/src/billing/plans.ts).
const PRO = 'cplan_pro';
const SCALE = 'cplan_scale';
const SOLO = 'cplan_solo';
const SOLO_PLUS = 'cplan_solo_plus';

interface Snapshot {
  status: string;
  fetchStatus: string;
  error: string | null;
}

/** What the page can reach of clerk-js: `window.Clerk`, typed only as far as these tests use it. */
interface PaymentSourceOwner {
  id: string;
  initializePaymentSource(p: { gateway: 'stripe' }): Promise<{ externalClientSecret: string }>;
  addPaymentSource(p: { gateway: 'stripe'; paymentToken: string }): Promise<{ id: string }>;
}
interface CheckoutState {
  status: string;
  fetchStatus: string;
  error: { message: string; errors?: { code: string }[] } | null;
  checkout: { id: string; status: string } | null;
}
interface CheckoutResult {
  data: { id: string; status: string } | null;
  error: { message: string; errors?: { code: string }[] } | null;
}
interface CheckoutInstance {
  start(): Promise<CheckoutResult>;
  confirm(params: Record<string, unknown>): Promise<CheckoutResult>;
  subscribe(listener: (state: CheckoutState) => void): () => void;
  getState(): CheckoutState;
}
interface PageClerk {
  loaded: boolean;
  organization: PaymentSourceOwner | null;
  user: PaymentSourceOwner | null;
  billing: { getPaymentAttempts(p: { orgId?: string }): Promise<{ total_count: number }> };
  __experimental_checkout(options: { planId: string; planPeriod: string; for?: string }): CheckoutInstance;
  __internal_openCheckout(props: { planId: string; planPeriod: string; for?: string }): void;
}
declare const window: Window & { Clerk: PageClerk };

describe('billing: the checkout state machine and its preconditions', () => {
  const suite = useSuite();
  let admin: Page;
  let member: Page;
  let organizationId: string;

  before(async () => {
    await enableBilling(suite.server, BILLING);
    const made = await team(suite.server, 'checkout', true);
    organizationId = made.organizationId;
    admin = (await signedIn(suite, made.admin)).page;
    member = (await signedIn(suite, made.member!)).page;
  });

  /** Whatever `__experimental_checkout` throws when created, or null. */
  function creationError(page: Page, planId: string) {
    return page.evaluate((p) => {
      try {
        window.Clerk.__experimental_checkout({ planId: p, planPeriod: 'month', for: 'organization' });
        return null;
      } catch (err) {
        return (err as Error).message;
      }
    }, planId);
  }

  /**
   * A card saved for the signed-in user or their active organisation, as clerk-js's add-payment-method form
   * makes it (through the stand-in's endpoint): initialise, confirm the setup intent with the card, attach
   * the method. Answers the payment source's id.
   */
  const saveCard = (page: Page, owner: 'user' | 'organization') =>
    page.evaluate(async (o) => {
      const payer = (o === 'user' ? window.Clerk.user : window.Clerk.organization)!;
      const init = await payer.initializePaymentSource({ gateway: 'stripe' });
      const confirmed = await fetch('/__clerk/v1/commerce/offline_gateway/setup_intents/confirm', {
        method: 'POST',
        credentials: 'same-origin',
        body: new URLSearchParams({
          client_secret: init.externalClientSecret,
          card_number: '4242424242424242',
          exp_month: '12',
          exp_year: '34',
          cvc: '123',
        }),
      });
      const { payment_method } = (await confirmed.json()) as { payment_method: string };
      return (await payer.addPaymentSource({ gateway: 'stripe', paymentToken: payment_method })).id;
    }, owner);

  const paymentAttempts = (page: Page) =>
    page.evaluate(
      async (orgId) => (await window.Clerk.billing.getPaymentAttempts({ orgId })).total_count,
      organizationId,
    );

  test('signed out: no checkout ("User is not authenticated")', async () => {
    const { page } = await suite.newPage();
    await page.goto(`${suite.server.origin}/pricing`);
    await page.waitForFunction(() => !!window.Clerk?.loaded, null, { timeout: UI_WAIT_MS });
    assert.equal(await creationError(page, PRO), 'Clerk: User is not authenticated');
  });

  test('signed in without an active organisation: no organisation checkout', async () => {
    const loner = await createUser(suite.server, 'checkout-loner');
    const { page } = await signedIn(suite, loner);
    await waitForClerkSession(page);
    assert.equal(await page.evaluate(() => window.Clerk.organization), null);
    assert.equal(await creationError(page, PRO), 'Clerk: Use `setActive` to set the organization');
  });

  test('confirm before start: "Call `start` before `confirm`", fetch status error, nothing sent', async () => {
    let sent = 0;
    const count = (r: { url(): string }) => {
      if (/\/commerce\/checkouts/.test(r.url())) sent += 1;
    };
    admin.on('request', count);
    const state = await admin.evaluate(async (planId) => {
      const checkout = window.Clerk.__experimental_checkout({
        planId,
        planPeriod: 'month',
        for: 'organization',
      });
      const result = await checkout.confirm({ paymentSourceId: 'cpm_none' });
      const s = checkout.getState();
      return {
        data: result.data,
        error: result.error?.message,
        status: s.status,
        fetchStatus: s.fetchStatus,
      };
    }, SCALE);
    admin.off('request', count);
    assert.deepEqual(state, {
      data: null,
      error: 'Clerk: Call `start` before `confirm`',
      status: 'needs_initialization',
      fetchStatus: 'error',
    });
    assert.equal(sent, 0);
  });

  test('needs_initialization → needs_confirmation → completed with a saved card; a second confirm charges nothing', async () => {
    const sourceId = await saveCard(admin, 'organization');
    assert.equal(await paymentAttempts(admin), 0);

    const run = await admin.evaluate(
      async ({ planId, paymentSourceId, orgId }) => {
        // (No named helper in here: the test's compiler would wrap it in a function the page lacks.)
        const checkout = window.Clerk.__experimental_checkout({
          planId,
          planPeriod: 'month',
          for: 'organization',
        });
        const states: Snapshot[] = [checkout.getState()].map((s: CheckoutState) => ({
          status: s.status,
          fetchStatus: s.fetchStatus,
          error: s.error?.message ?? null,
        }));
        const stop = checkout.subscribe((s) => {
          states.push({ status: s.status, fetchStatus: s.fetchStatus, error: s.error?.message ?? null });
        });
        const started = await checkout.start();
        // Read now: confirm updates the same checkout resource in place.
        const startedStatus = started.data?.status ?? started.error?.message;
        // clerk-js's own form passes the organisation to confirm too (CheckoutForm.tsx): the checkout
        // resource posts to the organisation's path only with it.
        const confirmed = await checkout.confirm({ paymentSourceId, orgId });
        stop();
        return {
          states,
          started: startedStatus,
          confirmed: confirmed.data?.status ?? confirmed.error?.message,
          checkoutId: confirmed.data?.id,
        };
      },
      { planId: PRO, paymentSourceId: sourceId, orgId: organizationId },
    );
    assert.equal(run.started, 'needs_confirmation');
    assert.equal(run.confirmed, 'completed');
    assert.deepEqual(run.states, [
      { status: 'needs_initialization', fetchStatus: 'idle', error: null },
      { status: 'needs_initialization', fetchStatus: 'fetching', error: null },
      { status: 'needs_confirmation', fetchStatus: 'idle', error: null },
      { status: 'needs_confirmation', fetchStatus: 'fetching', error: null },
      { status: 'completed', fetchStatus: 'idle', error: null },
    ]);
    assert.equal(await paymentAttempts(admin), 1);
    await planClaimBecomes(admin, 'o:pro');

    // Confirmed again (a retry, a double click): the same completed checkout, and no second charge.
    const again = await admin.evaluate(
      async ({ planId, paymentSourceId, orgId }) => {
        const checkout = window.Clerk.__experimental_checkout({
          planId,
          planPeriod: 'month',
          for: 'organization',
        });
        const result = await checkout.confirm({ paymentSourceId, orgId });
        return { status: result.data?.status, id: result.data?.id, error: result.error?.message ?? null };
      },
      { planId: PRO, paymentSourceId: sourceId, orgId: organizationId },
    );
    assert.deepEqual(again, { status: 'completed', id: run.checkoutId, error: null });
    assert.equal(await paymentAttempts(admin), 1);
  });

  test("the plan and period already active: clerk-js's invalid_plan_change screen", async () => {
    await admin.goto(`${suite.server.origin}/pricing`);
    await waitForClerkSession(admin);
    const start = admin.waitForResponse(
      (r) => /\/commerce\/checkouts$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST',
      { timeout: UI_WAIT_MS },
    );
    await admin.evaluate(
      (planId) => window.Clerk.__internal_openCheckout({ planId, planPeriod: 'month', for: 'organization' }),
      PRO,
    );
    const answer = await start;
    assert.equal(answer.status(), 400);
    const body = (await answer.json()) as { errors: { code: string; meta?: { plan?: { name: string } } }[] };
    assert.equal(body.errors[0]!.code, 'invalid_plan_change');
    // Pro has no annual fee: no upgrade is possible, and clerk-js says so beside the plan.
    const screen = drawer(admin);
    await screen
      .getByText(
        'You cannot subscribe to this plan. Your existing subscription is more expensive than this plan.',
      )
      .waitFor({ timeout: UI_WAIT_MS });
    await screen.getByText('Pro', { exact: true }).first().waitFor();
    assert.equal(await screen.getByTestId('offline-card-form').count(), 0);
    assert.equal(await screen.getByRole('button', { name: /^(Pay|Subscribe)/ }).count(), 0);
    assert.equal(await paymentAttempts(admin), 1);
  });

  test("from a plan billed annually, another plan billed monthly: clerk-js's choose-annual screen", async () => {
    await admin.goto(`${suite.server.origin}/pricing`);
    await waitForClerkSession(admin);
    // The admin's own Solo, billed annually, bought through clerk-js's checkout with a card of their own.
    const sourceId = await saveCard(admin, 'user');
    const bought = await admin.evaluate(
      async ({ planId, paymentSourceId }) => {
        const checkout = window.Clerk.__experimental_checkout({ planId, planPeriod: 'annual' });
        await checkout.start();
        const result = await checkout.confirm({ paymentSourceId });
        return result.data?.status ?? result.error?.message;
      },
      { planId: SOLO, paymentSourceId: sourceId },
    );
    assert.equal(bought, 'completed');

    // Solo Plus billed monthly: refused, and clerk-js says it can be had by paying annually.
    const start = admin.waitForResponse(
      (r) => /\/me\/commerce\/checkouts$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST',
      { timeout: UI_WAIT_MS },
    );
    await admin.evaluate(
      (planId) => window.Clerk.__internal_openCheckout({ planId, planPeriod: 'month' }),
      SOLO_PLUS,
    );
    const answer = await start;
    assert.equal(answer.status(), 400);
    const body = (await answer.json()) as {
      errors: { code: string; meta: { is_plan_upgrade_possible: boolean } }[];
    };
    assert.equal(body.errors[0]!.code, 'invalid_plan_change');
    assert.equal(body.errors[0]!.meta.is_plan_upgrade_possible, true);
    const screen = drawer(admin);
    await screen
      .getByText(
        'You cannot subscribe to this plan by paying monthly. To subscribe to this plan, you need to choose to pay annually.',
      )
      .waitFor({ timeout: UI_WAIT_MS });
    await screen.getByText('Solo Plus', { exact: true }).first().waitFor();
    assert.equal(await screen.getByRole('button', { name: /^(Pay|Subscribe)/ }).count(), 0);
    await admin.keyboard.press('Escape');
    await screen.waitFor({ state: 'detached', timeout: UI_WAIT_MS });
  });

  test('a member without billing permission gets no checkout', async () => {
    await waitForClerkSession(member);
    const result = await member.evaluate(async (planId) => {
      const checkout = window.Clerk.__experimental_checkout({
        planId,
        planPeriod: 'month',
        for: 'organization',
      });
      const started = await checkout.start();
      const s = checkout.getState();
      return {
        data: started.data,
        code: started.error?.errors?.[0]?.code,
        status: s.status,
        fetchStatus: s.fetchStatus,
      };
    }, SCALE);
    assert.deepEqual(result, {
      data: null,
      code: 'not_allowed_access',
      status: 'needs_initialization',
      fetchStatus: 'error',
    });
    // It can look (org:sys_billing:read): still the one payment, nothing more.
    assert.equal(await paymentAttempts(member), 1);
  });
});
