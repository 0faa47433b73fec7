import {
  bapiPlanJSON,
  bapiSubscriptionItemJSON,
  bapiSubscriptionJSON,
} from '../../billing/billing-bapi-json.ts';
import { pricingOrder } from '../../billing/billing-json.ts';
import { findPayer } from '../../billing/payers.ts';
import type { PlanCatalogue } from '../../billing/plans.ts';
import { cancelSubscriptionItem, currentSubscription } from '../../billing/subscriptions.ts';
import type { PayerRef } from '../../billing/billing-model.ts';
import type { Queryable } from '../../db/database.ts';
import type { IdentityDeps } from '../../deps.ts';
import { selectPayerById } from '../../store/billing-payers.ts';
import { selectItemById } from '../../store/billing-subscriptions.ts';
import { errors } from '../../errors.ts';
import { pageOf } from '../../organizations/invitations.ts';
import { findOrganization } from '../../store/organizations.ts';
import { queryFlag, queryString } from '../request-input.ts';
import type { BapiRoute } from '../route.ts';
import { queryInput } from '../json-input.ts';

/**
 * Backend API billing, as @clerk/backend 2.10.1's `clerkClient.billing` calls it (api/endpoints/
 * BillingApi.ts): the plan list, cancelling an item (now or at its period's end), and an organisation's
 * subscription, which the product server reads to derive the organisation's subscription flag.
 */

function catalogueOf(deps: IdentityDeps): PlanCatalogue {
  const catalogue = deps.billing.catalogue();
  if (!catalogue) throw errors.notFound('endpoint');
  return catalogue;
}

/** Whose item it is: the Backend API names an item alone. */
async function payerOfItem(tx: Queryable, itemId: string): Promise<PayerRef | null> {
  const item = await selectItemById(tx, itemId);
  const payer = item ? await selectPayerById(tx, item.payerId) : null;
  if (!payer) return null;
  if (payer.userId) return { type: 'user', userId: payer.userId };
  return payer.organizationId ? { type: 'org', organizationId: payer.organizationId } : null;
}

const looksLikeId = (id: string | undefined): id is string =>
  !!id && id.length <= 64 && /^[A-Za-z0-9_-]+$/.test(id);

export const billingBapiRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/commerce/plans',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ payer_type: 'enum', limit: 'page', offset: 'page' }) },
    async handler(req, deps) {
      const catalogue = catalogueOf(deps);
      const type = queryString(req.query, 'payer_type');
      if (type !== undefined && type !== 'user' && type !== 'org')
        throw errors.paramValueInvalid('payer_type', 'payer_type must be one of user or org.');
      const page = pageOf(req.query);
      // Every plan, hidden ones too: the operator sees the whole catalogue.
      const plans = [...(type ? catalogue.forPayer(type) : catalogue.plans)].sort(pricingOrder);
      return {
        data: plans.slice(page.offset, page.offset + page.limit).map(bapiPlanJSON),
        total_count: plans.length,
      };
    },
  },
  {
    method: 'DELETE',
    path: '/v1/commerce/subscription_items/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ end_now: 'flag' }) },
    async handler(req, deps) {
      const catalogue = catalogueOf(deps);
      const id = req.params.id;
      if (!looksLikeId(id)) throw errors.notFound('subscription item');
      const endNow = queryFlag(req.query, 'end_now');
      const now = deps.clock();
      const item = await deps.db.transaction(async (tx) => {
        const ref = await payerOfItem(tx, id);
        if (!ref) throw errors.notFound('subscription item');
        return cancelSubscriptionItem(tx, ref, id, { endNow }, now, catalogue);
      });
      // @clerk/backend reads the item itself (not a deleted object).
      return bapiSubscriptionItemJSON(item);
    },
  },
  {
    method: 'GET',
    path: '/v1/organizations/:id/billing/subscription',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const catalogue = catalogueOf(deps);
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        const organization = await findOrganization(tx, req.params.id!);
        if (!organization) throw errors.notFound('organization');
        const ref = { type: 'org' as const, organizationId: organization.id };
        const current = await currentSubscription(tx, ref, catalogue, now);
        if (!current) throw errors.notFound('subscription');
        const payer = await findPayer(tx, ref);
        return bapiSubscriptionJSON(current.subscription, current.items, {
          eligibleForFreeTrial: !payer?.trialUsed,
        });
      });
    },
  },
];
