export { createIdentity, cookieSuffixOf, type Identity } from './identity.ts';
export { identityConfigFromEnv, type IdentityConfig } from './config.ts';
export {
  openDatabase,
  pingDatabase,
  DatabaseUnavailableError,
  type Database,
  type DatabaseOptions,
  type Queryable,
  type Transaction,
} from './db/database.ts';
export { migrate, runMigrations, type MigrationSet } from './db/migrate.ts';
export { publishableKeyFor } from './instance/instance-keys.ts';
export { clerkFrameworkErrors } from './http/framework-errors.ts';
export { fastifyTrustProxy, trustedProxiesFrom, type TrustedProxies } from './http/trusted-proxies.ts';
export { outboxExposureWarning } from './dev/outbox-exposure.ts';
export { jsonNestsDeeperThan } from './http/json-nesting.ts';
export type { LiveInstanceSettings, SettingsListener } from './instance/settings/live-settings.ts';
export type { StoredInstanceSettings } from './store/instance-settings.ts';
export type { InstanceSettings } from './instance/settings/schema.ts';
export { googleOneTapClientId } from './social/google-one-tap.ts';
export { API_KEY_SECRET_SHAPE } from './api-keys/api-key-secret.ts';
export { captchaProviderInUse } from './captcha/captcha-settings.ts';
export { accountsPortalOrigin, isAllowedRedirect, POPUP_CALLBACK_PATH } from './http/redirects.ts';
export { allSatelliteOrigins } from './domains/domains.ts';
export { deriveWebhookSecret, newWebhookSecret } from './webhooks/signing.ts';
export type { ResolvedEndpoint as WebhookEndpoint } from './webhooks/delivery.ts';
export { declaredRoutes, DEV_OUTBOX_PREFIX, type DeclaredRoute } from './declared-routes.ts';
export { Metrics } from './observability/metrics.ts';
export { metricsAccessFrom, metricsAllowed, type MetricsAccess } from './observability/metrics-access.ts';
export {
  healthzRoute,
  metricsRoute,
  readyzRoute,
  type Dependency,
  type OperationsDeps,
  type OperationsRoute,
} from './observability/operations-routes.ts';
export {
  loggerOptions,
  registerRequestObservability,
  requestIdOptions,
} from './observability/request-observability.ts';
