import { planJSON, pageJSON, pricingOrder } from '../../billing/billing-json.ts';
import type { PayerType } from '../../billing/billing-model.ts';
import { errors } from '../../errors.ts';
import type { FapiReadRoute } from '../context.ts';
import { catalogueOf } from './billing-access.ts';
import { billingId, billingPage, pageOfArray } from './billing-input.ts';
import { formInput } from '../form-input.ts';
import { planReaderLanguage } from './plan-reader-language.ts';

function payerTypeOf(value: unknown): PayerType {
  if (value === undefined || value === '' || value === 'user') return 'user';
  if (value === 'org') return 'org';
  throw errors.paramValueInvalid('payer_type', 'payer_type must be one of user or org.');
}

/**
 * GET /commerce/plans?payer_type=user|org&limit&offset — <PricingTable/>, signed in or not: the publicly
 * visible plans of that payer type, bare `{data, total_count}` (clerk-js reads the body itself, not
 * `response`). From the settings in memory: no transaction, no client (read only for a signed-in reader's
 * language when no `ui_language` cookie gives it).
 */
export const listPlansRoute: FapiReadRoute = {
  method: 'GET',
  path: '/commerce/plans',
  auth: 'none',
  permission: null,
  input: { query: formInput({ payer_type: 'enum', limit: 'page', offset: 'page' }) },
  async read(req) {
    const catalogue = catalogueOf(req);
    const type = payerTypeOf(req.query.payer_type);
    const page = billingPage(req);
    const visible = catalogue
      .forPayer(type)
      .filter((p) => p.publiclyVisible)
      .sort(pricingOrder);
    const language = await planReaderLanguage(req);
    return {
      bare: pageJSON(
        pageOfArray(visible, page).map((p) => planJSON(p, language)),
        visible.length,
      ),
    };
  },
};

/**
 * GET /commerce/plans/:id — the plan-details drawer, bare. A hidden plan answers too: a payer still on
 * it opens its details from the subscription.
 */
export const getPlanRoute: FapiReadRoute = {
  method: 'GET',
  path: '/commerce/plans/:id',
  auth: 'none',
  permission: null,
  input: { query: formInput() },
  async read(req) {
    const catalogue = catalogueOf(req);
    const plan = catalogue.byId(billingId(req.params.id, 'plan'));
    if (!plan) throw errors.notFound('plan');
    return { bare: planJSON(plan, await planReaderLanguage(req)) };
  },
};
