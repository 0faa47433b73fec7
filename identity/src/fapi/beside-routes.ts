import { stripeWebhookRoute } from '../billing/gateways/stripe-webhook-route.ts';
import type { RouteDeclaration } from '../http/route-declaration.ts';
import { socialLogoRoute } from '../social/logo-route.ts';
import { samlMetadataRoute } from './enterprise-sso/saml-metadata.ts';
import { oauthProviderRoutes, registrationRoute } from '../oauth-provider/oauth-provider-routes.ts';

/**
 * The routes under the Frontend API's path that are not the Frontend API plugin's (identity.ts registers
 * each in a scope of its own: Stripe's deliveries keep their exact bytes, the public files need no origin
 * check). Paths here are under the Frontend API's path and include `/v1` where they have it (the authorization
 * server's do not). Declared like every route, so
 * the suites reach them by this list; registered by the function beside each declaration.
 */
export const besideRoutes: readonly RouteDeclaration[] = [
  socialLogoRoute,
  samlMetadataRoute,
  stripeWebhookRoute,
  ...oauthProviderRoutes,
  registrationRoute,
];
