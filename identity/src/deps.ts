import type { Metrics } from './observability/metrics.ts';
import type Provider from 'oidc-provider';
import type { BillingRuntime } from './billing/billing-runtime.ts';
import type { IdentityConfig } from './config.ts';
import type { Database } from './db/database.ts';
import type { EnvironmentCache } from './instance/environment.ts';
import type { InstanceKeys } from './instance/instance-keys.ts';
import type { TokenContext } from './instance/session-token.ts';
import type { SigningKey, SigningKeyRing } from './instance/signing-keys.ts';
import type { LiveInstanceSettings } from './instance/settings/live-settings.ts';
import type { SessionActivityBatch } from './sessions/activity-batch.ts';
import type { Mailer } from './mail/mailer.ts';
import type { SmsSender } from './sms/sms-sender.ts';
import type { ResolvedEndpoint } from './webhooks/delivery.ts';

/**
 * Everything a request handler may use; built once at start-up, holds no per-user state but `activity`
 * (timestamps waiting to be written, nothing a check depends on).
 */
export interface IdentityDeps {
  db: Database;
  config: IdentityConfig;
  keys: InstanceKeys;
  /** The key that signs now; `signingKeys` holds every published key. */
  readonly signingKey: SigningKey;
  signingKeys: SigningKeyRing;
  tokens: TokenContext;
  /** Activity timestamps of sessions in use, written in bulk (the one state kept between requests). */
  activity: SessionActivityBatch;
  mailer: Mailer;
  /** Null in production without an SMS provider: phone numbers are then switched off. */
  sms: SmsSender | null;
  /** Suffix of clerk-js's suffixed cookie names, derived from the publishable key. */
  cookieSuffix: string;
  clock: () => Date;
  /** Absolute URL of the default profile image. */
  avatarUrl: string;
  /** Absolute URL of the Frontend API (public URL + mount path), for image URLs. */
  fapiBase: string;
  /** GET /v1/environment's answer, cached: invalidate() it when the instance's settings change. */
  environment: EnvironmentCache;
  /** The instance settings, in memory and followed across processes (instance/settings/). */
  settings: LiveInstanceSettings;
  /** Billing's plans and payment gateway, following the live settings (billing/billing-runtime.ts). */
  billing: BillingRuntime;
  /** The OAuth 2.1 / OpenID Connect authorization server (oauth-provider/), made on first use. */
  oauthProvider: () => Promise<Provider>;
  /** The process's Prometheus metrics (observability/metrics.ts), shared with the product server. */
  metrics: Metrics;
  /**
   * This process's webhook endpoints (the instance settings' and those added here) and a way to wake its
   * delivery worker; set when the webhooks start (webhooks/webhooks.ts).
   */
  webhooks?: { endpoints(): ResolvedEndpoint[]; kick(): void };
}
