import assert from 'node:assert/strict';
import type { Harness, FapiResponse, Json } from './harness.ts';
import type { Member } from './organizations.ts';

/**
 * A billing catalogue for the Frontend/Backend API tests: a free default and paid plans for users and for
 * organisations, a hidden plan, features on both, the offline gateway.
 */
export const BILLING = {
  enabled: true,
  currency: 'usd',
  gateway: { kind: 'offline' },
  features: {
    reports: { name: 'Reports', description: 'Monthly reports' },
    sso: { name: 'SSO' },
    exports: { name: 'Exports' },
  },
  plans: {
    free_user: { name: 'Free', payerType: 'user', monthlyFee: 0, isDefault: true },
    pro_user: {
      name: 'Pro',
      payerType: 'user',
      monthlyFee: 1000,
      annualMonthlyFee: 800,
      features: ['reports', 'exports'],
    },
    free_org: { name: 'Free team', payerType: 'org', monthlyFee: 0, isDefault: true },
    team: {
      name: 'Team',
      payerType: 'org',
      monthlyFee: 5000,
      annualMonthlyFee: 4000,
      features: ['reports', 'sso'],
      freeTrialDays: 14,
    },
    business: { name: 'Business', payerType: 'org', monthlyFee: 9900, features: ['reports', 'sso'] },
    legacy: { name: 'Legacy', payerType: 'org', monthlyFee: 2000, publiclyVisible: false },
  },
} as const;

export async function enableBilling(h: Harness, billing: object = BILLING): Promise<void> {
  await h.identity.settings.set({ ...h.identity.settings.settings, billing });
}

export async function disableBilling(h: Harness): Promise<void> {
  const { billing: _, ...rest } = h.identity.settings.settings;
  await h.identity.settings.set(rest);
}

/** `/me` or `/organizations/:id`, as clerk-js prefixes a payer's billing calls. */
export const scopeOf = (orgId?: string) => (orgId ? `/organizations/${orgId}` : '/me');

export function ok(res: FapiResponse): Json {
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** Starts a checkout and confirms it with the offline gateway's test card (or a saved source). */
export async function subscribe(
  member: Member,
  planId: string,
  opts: { orgId?: string; period?: 'month' | 'annual'; paymentSourceId?: string } = {},
): Promise<Json> {
  const scope = scopeOf(opts.orgId);
  const started = ok(
    await member.browser.post(`${scope}/commerce/checkouts`, {
      plan_id: planId,
      plan_period: opts.period ?? 'month',
    }),
  ).response;
  const payment: Record<string, string> = opts.paymentSourceId
    ? { payment_source_id: opts.paymentSourceId }
    : { gateway: 'stripe', use_test_card: 'true' };
  const confirmed = ok(
    await member.browser.patch(`${scope}/commerce/checkouts/${started.id}/confirm`, payment),
  );
  return confirmed.response;
}

/** The payer's subscription as GET …/commerce/subscription answers it. */
export async function subscriptionOf(member: Member, orgId?: string): Promise<Json> {
  return ok(await member.browser.get(`${scopeOf(orgId)}/commerce/subscription`)).response;
}
