import {
  bapiPayerJSON,
  bapiPlanJSON,
  bapiSubscriptionItemJSON,
  bapiSubscriptionJSON,
} from '../../billing/billing-bapi-json.ts';
import { pricingOrder, statementJSON } from '../../billing/billing-json.ts';
import { findPayer } from '../../billing/payers.ts';
import type { PlanCatalogue } from '../../billing/plans.ts';
import { cancelSubscriptionItem, currentSubscription } from '../../billing/subscriptions.ts';
import type { PayerRef, PayerType, SubscriptionItemStatus } from '../../billing/billing-model.ts';
import { listStatementsOfInstance } from '../../billing/statements.ts';
import type { Queryable } from '../../db/database.ts';
import type { IdentityDeps } from '../../deps.ts';
import { selectPayerById } from '../../store/billing-payers.ts';
import { selectItemById, selectItemsOfInstance } from '../../store/billing-subscriptions.ts';
import { errors } from '../../errors.ts';
import { pageOf } from '../../organizations/invitations.ts';
import { findOrganization } from '../../store/organizations.ts';
import { queryFlag, queryString } from '../request-input.ts';
import type { BapiRoute } from '../route.ts';
import { queryInput } from '../json-input.ts';
import { bapiAnswerLanguage } from './answer-language.ts';

/**
 * Backend API billing, as @clerk/backend 2.10.1's `clerkClient.billing` calls it (api/endpoints/
 * BillingApi.ts): the plan list, cancelling an item (now or at its period's end), and an organisation's
 * subscription, which the product server reads to derive the organisation's subscription flag. And, for the
 * operator console, hosted Clerk's instance-wide lists `GET /v1/billing/subscription_items` and
 * `GET /v1/billing/statements` (later @clerk/backend and Clerk's Backend API reference), the statements'
 * `payer_id` filter being ours (docs/backend-api.md#our-extensions-for-the-operator-console). Plan and
 * feature names are written in Accept-Language's language, else French (answer-language.ts).
 */

const ITEM_STATUSES: readonly SubscriptionItemStatus[] = [
  'upcoming',
  'active',
  'past_due',
  'ended',
  'abandoned',
];

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

/** The lists' `payer_type` filter: `user`, `org`, or none; anything else is refused. */
function payerTypeOf(query: Parameters<typeof queryString>[0]): PayerType | undefined {
  const type = queryString(query, 'payer_type');
  if (type !== undefined && type !== 'user' && type !== 'org')
    throw errors.paramValueInvalid('payer_type', 'payer_type must be one of user or org.');
  return type;
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
      const type = payerTypeOf(req.query);
      const page = pageOf(req.query);
      // Every plan, hidden ones too: the operator sees the whole catalogue.
      const plans = [...(type ? catalogue.forPayer(type) : catalogue.plans)].sort(pricingOrder);
      return {
        data: plans
          .slice(page.offset, page.offset + page.limit)
          .map((plan) => bapiPlanJSON(plan, bapiAnswerLanguage(req))),
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
      return bapiSubscriptionItemJSON(item, bapiAnswerLanguage(req));
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
          language: bapiAnswerLanguage(req),
        });
      });
    },
  },
  {
    method: 'GET',
    path: '/v1/billing/subscription_items',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      query: queryInput({
        status: 'enum',
        payer_type: 'enum',
        plan_id: 'text',
        limit: 'page',
        offset: 'page',
      }),
    },
    async handler(req, deps) {
      catalogueOf(deps); // 404 while the instance does not bill
      const status = queryString(req.query, 'status');
      if (status !== undefined && !ITEM_STATUSES.includes(status as SubscriptionItemStatus))
        throw errors.paramValueInvalid('status', `status must be one of ${ITEM_STATUSES.join(', ')}.`);
      const payerType = payerTypeOf(req.query);
      const planId = queryString(req.query, 'plan_id');
      // A plan id is `cplan_<slug>`; an id of no plan matches nothing (hosted Clerk lists nothing either).
      const planSlug = planId === undefined ? undefined : planId.startsWith('cplan_') ? planId.slice(6) : '';
      const page = pageOf(req.query);
      const { rows, totalCount } = await deps.db.transaction((tx) =>
        selectItemsOfInstance(
          tx,
          { status: status as SubscriptionItemStatus | undefined, payerType, planSlug },
          page,
        ),
      );
      return {
        data: rows.map(({ item, userId, organizationId }) => ({
          ...bapiSubscriptionItemJSON(item, bapiAnswerLanguage(req)),
          payer: bapiPayerJSON({ id: item.payerId, userId, organizationId }),
        })),
        total_count: totalCount,
      };
    },
  },
  {
    method: 'GET',
    path: '/v1/billing/statements',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ payer_id: 'text', limit: 'page', offset: 'page' }) },
    async handler(req, deps) {
      const catalogue = catalogueOf(deps);
      const payerId = queryString(req.query, 'payer_id') ?? null;
      const page = pageOf(req.query);
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        // Ours: one payer's statements. A payer that does not exist is a 404, not an empty list.
        if (payerId !== null && !(looksLikeId(payerId) && (await selectPayerById(tx, payerId))))
          throw errors.notFound('payer');
        const { data, totalCount } = await listStatementsOfInstance(tx, payerId, page, now);
        const answered = [];
        for (const detail of data) {
          const payer = await selectPayerById(tx, detail.statement.payerId);
          answered.push({
            ...statementJSON(detail, catalogue.currency, now, bapiAnswerLanguage(req)),
            payer: payer ? bapiPayerJSON(payer) : null,
          });
        }
        return { data: answered, total_count: totalCount };
      });
    },
  },
];
