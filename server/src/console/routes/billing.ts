import { z } from '@app/contract';
import { ApiError } from '../../api/errors.ts';
import { consoleRoute } from '../console-route.ts';
import { operatorAcceptLanguage } from '../operator-language.ts';
import { pageQuery } from './ids.ts';

/**
 * The console's billing area (docs/console.md, docs/billing.md): the plans with their features and prices,
 * every payer's subscription items (payer, plan, status, period), and the statements with their payments.
 * Read-only: a plan is changed in the instance settings, a subscription by its payer (or through the Backend
 * API's `cancelSubscriptionItem`), never from here. Each call is a Backend API call as the operator's, in
 * the operator's language: plan and feature names come in it where the settings give two (docs/languages.md).
 */

const PAYER_TYPES = ['user', 'org'] as const;
const ITEM_STATUSES = ['upcoming', 'active', 'past_due', 'ended', 'abandoned'] as const;

/** Billing's ids: a plan `cplan_<slug>` (slugs of the settings: letters, digits, `_`, `-`), a payer `cpayer_…`. */
const planIdParam = z.string().regex(/^cplan_[0-9A-Za-z_-]{1,64}$/, 'a cplan_ id');
const payerIdParam = z.string().regex(/^cpayer_[0-9A-Za-z]{1,64}$/, 'a cpayer_ id');

/**
 * GET /console/api/billing/plans?payer_type=&limit=&offset= — `billing.getPlanList` (`GET
 * /v1/commerce/plans`): every plan, hidden ones included, with its features and fees, `{ data, total_count }`.
 */
export const listPlansRoute = consoleRoute({
  method: 'GET',
  path: '/billing/plans',
  permission: 'operator',
  input: { query: z.object({ payer_type: z.enum(PAYER_TYPES).optional(), ...pageQuery }) },
  async handler({ req, operator, query: { payer_type, limit, offset } }, { backend, billingEnabled }) {
    requireBilling(billingEnabled);
    return backend.call('GET', '/commerce/plans', {
      operatorId: operator.userId,
      acceptLanguage: operatorAcceptLanguage(req),
      query: { payer_type, limit, offset },
    });
  },
});

/**
 * GET /console/api/billing/subscriptions?status=&payer_type=&plan_id=&limit=&offset= — hosted Clerk's
 * `GET /v1/billing/subscription_items`: every payer's items, newest first, each with its `payer`
 * (`user_id` or `organization_id`), plan, status and period.
 */
export const listSubscriptionsRoute = consoleRoute({
  method: 'GET',
  path: '/billing/subscriptions',
  permission: 'operator',
  input: {
    query: z.object({
      status: z.enum(ITEM_STATUSES).optional(),
      payer_type: z.enum(PAYER_TYPES).optional(),
      plan_id: planIdParam.optional(),
      ...pageQuery,
    }),
  },
  async handler(
    { req, operator, query: { status, payer_type, plan_id, limit, offset } },
    { backend, billingEnabled },
  ) {
    requireBilling(billingEnabled);
    return backend.call('GET', '/billing/subscription_items', {
      operatorId: operator.userId,
      acceptLanguage: operatorAcceptLanguage(req),
      query: { status, payer_type, plan_id, limit, offset },
    });
  },
});

/**
 * GET /console/api/billing/statements?payer_id=&limit=&offset= — hosted Clerk's `GET /v1/billing/statements`
 * (every payer's, newest month first), or one payer's with our `payer_id` (404 for a payer that does not
 * exist): each statement with its payer, totals and payments grouped by day.
 */
export const listStatementsRoute = consoleRoute({
  method: 'GET',
  path: '/billing/statements',
  permission: 'operator',
  input: { query: z.object({ payer_id: payerIdParam.optional(), ...pageQuery }) },
  async handler({ req, operator, query: { payer_id, limit, offset } }, { backend, billingEnabled }) {
    requireBilling(billingEnabled);
    return backend.call('GET', '/billing/statements', {
      operatorId: operator.userId,
      acceptLanguage: operatorAcceptLanguage(req),
      query: { payer_id, limit, offset },
    });
  },
});

/** Billing off: the area says so (`404 billing_disabled`) rather than the Backend API's bare 404. */
function requireBilling(billingEnabled: () => boolean) {
  if (!billingEnabled()) throw new ApiError('billing_disabled');
}

export const billingConsoleRoutes = [listPlansRoute, listSubscriptionsRoute, listStatementsRoute];
