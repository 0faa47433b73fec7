import { errors } from '../../errors.ts';
import type { RouteMethod } from '../../http/route-declaration.ts';
import type { BapiRoute } from '../route.ts';

/**
 * What `@clerk/backend` 2.10.1 can ask that only Clerk's hosted service does: keyless ("accountless")
 * applications claimed in Clerk's dashboard, its check of a customer's Frontend API proxy, its beta
 * features (moving a production instance to another domain, the allowlist switch of the beta
 * instance settings) and the Svix application behind its webhooks dashboard. Each answers
 * `422 not_supported_by_this_provider` in Clerk's envelope, naming the feature and what to use here
 * instead (docs/backend-api.md), rather than the 404 of an unknown route, which reads as a wrong URL.
 */

interface CloudOnlyFeature {
  method: RouteMethod;
  path: string;
  feature: string;
  detail: string;
}

const ACCOUNTLESS =
  'Accountless applications are made and claimed in Clerk’s hosted dashboard; this provider is configured by its operator instead (docs/configuration.md).';
const PROXY =
  'Proxy checks verify a Frontend API proxy for Clerk’s hosted service; this provider serves its Frontend API itself, at its configured public URL.';
const DOMAIN =
  'Moving an instance to another domain is done in Clerk’s hosted dashboard; here the domain is the provider’s configured public URL.';
const INSTANCE_SETTINGS =
  'Beta instance settings belong to Clerk’s hosted service; this provider’s settings are changed with `npm run identity -- settings` (docs/instance-settings.md). The allowlist applies as soon as it has an entry.';
const SVIX =
  'Clerk’s webhooks dashboard is a Svix application of Clerk’s hosted service; this provider delivers its webhooks itself (docs/webhooks.md).';

const FEATURES: CloudOnlyFeature[] = [
  {
    method: 'POST',
    path: '/v1/accountless_applications',
    feature: 'accountless_applications',
    detail: ACCOUNTLESS,
  },
  {
    method: 'POST',
    path: '/v1/accountless_applications/complete',
    feature: 'accountless_applications',
    detail: ACCOUNTLESS,
  },
  { method: 'POST', path: '/v1/proxy_checks', feature: 'proxy_checks', detail: PROXY },
  { method: 'POST', path: '/v1/beta_features/change_domain', feature: 'beta_features', detail: DOMAIN },
  { method: 'PUT', path: '/v1/beta_features/domain', feature: 'beta_features', detail: DOMAIN },
  {
    method: 'PATCH',
    path: '/v1/beta_features/instance_settings',
    feature: 'beta_features',
    detail: INSTANCE_SETTINGS,
  },
  { method: 'POST', path: '/v1/webhooks/svix', feature: 'svix', detail: SVIX },
  { method: 'DELETE', path: '/v1/webhooks/svix', feature: 'svix', detail: SVIX },
  { method: 'POST', path: '/v1/webhooks/svix_url', feature: 'svix', detail: SVIX },
];

export const cloudOnlyRoutes: BapiRoute[] = FEATURES.map(({ method, path, feature, detail }) => ({
  method,
  path,
  auth: 'secret_key',
  permission: 'instance_secret_key',
  // Whatever the body holds, the answer is the same: nothing here reads it.
  input: {},
  handler: async () => {
    throw errors.notSupportedByThisProvider(feature, detail);
  },
}));
