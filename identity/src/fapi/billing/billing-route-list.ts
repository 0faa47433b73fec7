import type { AnyFapiRoute } from '../context.ts';
import { confirmCheckoutRoutes, startCheckoutRoutes } from './checkout-routes.ts';
import {
  addPaymentSourceRoutes,
  defaultPaymentSourceRoutes,
  initializePaymentSourceRoutes,
  listPaymentSourcesRoutes,
  removePaymentSourceRoutes,
} from './payment-source-routes.ts';
import { getPlanRoute, listPlansRoute } from './plan-routes.ts';
import {
  getPaymentAttemptRoutes,
  getStatementRoutes,
  listPaymentAttemptsRoutes,
  listStatementsRoutes,
} from './statement-routes.ts';
import {
  cancelSubscriptionItemRoutes,
  getSubscriptionRoutes,
  listSubscriptionItemsRoutes,
} from './subscription-routes.ts';

/**
 * Billing's sixteen Frontend API calls as clerk-js 5.90.0 makes them (core/modules/commerce/*,
 * resources/Commerce*.ts), the payer's ones under both `/me` and `/organizations/:organizationId`. When
 * the instance does not bill every one is 404 (clerk-js then shows no billing and calls none).
 */
export const billingRoutes: AnyFapiRoute[] = [
  listPlansRoute,
  getPlanRoute,
  ...getSubscriptionRoutes,
  ...listSubscriptionItemsRoutes,
  ...cancelSubscriptionItemRoutes,
  ...listStatementsRoutes,
  ...getStatementRoutes,
  ...listPaymentAttemptsRoutes,
  ...getPaymentAttemptRoutes,
  ...startCheckoutRoutes,
  ...confirmCheckoutRoutes,
  ...initializePaymentSourceRoutes,
  ...addPaymentSourceRoutes,
  ...listPaymentSourcesRoutes,
  ...removePaymentSourceRoutes,
  ...defaultPaymentSourceRoutes,
];
