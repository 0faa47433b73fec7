import { DEV_OUTBOX_PREFIX } from './declared-routes.ts';
import { configurePasswordHashing, passwordHashLimiter } from './crypto/passwords.ts';
import { Metrics } from './observability/metrics.ts';
import { metricsAllowed } from './observability/metrics-access.ts';
import { operationsRoutes, type Dependency } from './observability/operations-routes.ts';
import { registerRequestObservability } from './observability/request-observability.ts';
import { pendingWebhookWork } from './store/webhooks.ts';
import { createHash } from 'node:crypto';
import { auditing } from './db/auditing.ts';
import type { FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import type { IdentityConfig } from './config.ts';
import { openDatabase, pingDatabase, type Database, type DatabaseOptions } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import type { IdentityDeps } from './deps.ts';
import { EnvironmentCache, environmentJSON } from './instance/environment.ts';
import { loadInstanceKeys } from './instance/instance-keys.ts';
import { SigningKeyRing } from './instance/signing-keys.ts';
import { outboxMailer, smtpMailer } from './mail/mailer.ts';
import { fapiPlugin } from './fapi/plugin.ts';
import { bapiPlugin } from './bapi/plugin.ts';
import { devOutboxPlugin } from './dev/outbox-plugin.ts';
import { smsSenderFor } from './sms/choose-sender.ts';
import { startRetention, type RetentionJob } from './retention/schedule.ts';
import { applyInstanceSettingsAtStart } from './instance/settings/apply-at-start.ts';
import { syncDeclaredOAuthApplications } from './oauth-provider/declared-applications.ts';
import { createOidcProvider } from './oauth-provider/oidc-provider-instance.ts';
import { registerBesideRoutes } from './fapi/beside-routes.ts';
import type Provider from 'oidc-provider';
import type { Webhooks } from './webhooks/webhooks.ts';
import { createBillingRuntime } from './billing/billing-runtime.ts';
import type { BillingSchedule } from './billing/renewal-schedule.ts';
import { startCapabilityJobs, stopCapabilityJobs } from './capabilities.ts';
import type { LiveInstanceSettings, SettingsListener } from './instance/settings/live-settings.ts';
import {
  ACTIVITY_BATCH_DEFAULTS,
  SessionActivityBatch,
  type ActivityBatchOptions,
} from './sessions/activity-batch.ts';

export interface Identity {
  deps: IdentityDeps;
  publishableKey: string;
  secretKey: string;
  /** True when mail is captured in the development outbox rather than sent. */
  devOutbox: boolean;
  /**
   * Mounts FAPI at `config.fapiPath`, BAPI at `bapiPath`, and the dev outbox at `/__dev`; unless
   * `operations` is false (the product server serves its own), also /healthz, /readyz and /metrics with
   * request ids and request metrics on the whole app (observability/): call it before any other route.
   */
  register(app: FastifyInstance, opts: { bapiPath: string; operations?: boolean }): Promise<void>;
  /** The process's Prometheus metrics (docs/observability.md). */
  metrics: Metrics;
  /** What readiness probes of the provider: its database. */
  readiness: Dependency;
  /** The scheduled purge of expired rows (`config.retention`). */
  retention: RetentionJob;
  /** Webhook endpoints and the delivery worker (docs/webhooks.md). */
  webhooks: Webhooks;
  /** The billing renewal schedule (docs/billing.md). */
  billingSchedule: BillingSchedule;
  /** The instance settings this process runs with (shown and changed by `npm run identity -- settings`). */
  settings: LiveInstanceSettings;
  /**
   * Calls `listener` after the instance settings change, here or in another process (seen within a few
   * seconds): what caches built from them (the environment) drop their copy on. Answers the way to stop.
   */
  onInstanceSettingsChanged(listener: SettingsListener): () => void;
  /** The settings' version: a cheap value to compare with the one a cache was built at. */
  instanceSettingsVersion(): number;
  /**
   * Stops all this instance runs (the settings watch, the purge, every capability's job) and writes the
   * session activity that waits, leaving the database open: for a database others still use.
   */
  stop(): Promise<void>;
  /** stop(), then closes the database. */
  close(): Promise<void>;
}

/** clerk-js's suffixed cookie names: first 8 chars of URL-safe base64 of SHA-1(publishable key). */
export function cookieSuffixOf(publishableKey: string): string {
  return createHash('sha1')
    .update(publishableKey)
    .digest('base64')
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .slice(0, 8);
}

export async function createIdentity(
  config: IdentityConfig,
  database: DatabaseOptions | Database,
  opts: { clock?: () => Date; activity?: Partial<ActivityBatchOptions>; metrics?: Metrics } = {},
): Promise<Identity> {
  if (config.mode === 'production' && !config.smtpUrl) {
    throw new Error('Production mode needs SMTP_URL: there is no development outbox in production.');
  }
  const sms = smsSenderFor(config);
  configurePasswordHashing(config.passwordHashing);
  const opened = 'query' in database ? null : await openDatabase(database);
  const db = opened ?? (database as Database);
  const clock = opts.clock ?? (() => new Date());
  let keys: Awaited<ReturnType<typeof loadInstanceKeys>>;
  let signingKeys: SigningKeyRing;
  let settings: Awaited<ReturnType<typeof applyInstanceSettingsAtStart>>;
  try {
    await migrate(db);
    keys = await loadInstanceKeys(db, config);
    signingKeys = await SigningKeyRing.load(db, clock);
    settings = await applyInstanceSettingsAtStart(db, config, clock);
    await syncDeclaredOAuthApplications(db, keys.codePepper, settings.settings.oauthApplications, clock());
  } catch (err) {
    // A start refused (a bad settings file, a failed migration) leaves no database open behind it.
    await opened?.close().catch(() => {});
    throw err;
  }
  const activity = new SessionActivityBatch(db, {
    ...ACTIVITY_BATCH_DEFAULTS,
    // The message only: it names a table or the connection, never a session or an address.
    onError: (err) =>
      console.warn(`identity: writing session activity failed, kept for the next try: ${err.message}`),
    ...opts.activity,
  });
  activity.start();
  let oauthProvider: Promise<Provider> | undefined;
  const metrics = opts.metrics ?? new Metrics();
  // The database as opened: wrappers (the webhooks' emit-on-commit) do not report their connections.
  metrics.observeDatabase('identity', db);
  metrics.observeWebhookQueue(() => pendingWebhookWork(db));
  metrics.observePasswordHashing(passwordHashLimiter);
  const deps: IdentityDeps = {
    db,
    config,
    keys,
    signingKeys,
    // The key that signs now (a rotation's new key takes over at its `signs_from`).
    get signingKey() {
      return signingKeys.current();
    },
    tokens: {
      get signingKey() {
        return signingKeys.current();
      },
      issuer: `https://${config.frontendApiHost}`,
      ttlSeconds: config.sessionTokenTtlSeconds,
    },
    activity,
    mailer: config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : outboxMailer(),
    sms,
    cookieSuffix: cookieSuffixOf(keys.publishableKey),
    clock,
    avatarUrl: `${config.publicUrl}${config.fapiPath}/v1/avatars/avatar_placeholder.svg`,
    fapiBase: `${config.publicUrl}${config.fapiPath}`,
    environment: new EnvironmentCache(() =>
      environmentJSON(config, settings.settings, () => deps.billing.gateway().publishableKey),
    ),
    settings,
    // The gateway reads deps.db when called, so it uses the connection wrapped by the webhooks below.
    billing: createBillingRuntime(settings, config, () => deps.db, clock),
    oauthProvider: () => (oauthProvider ??= createOidcProvider(deps)),
    metrics,
  };
  // What clerk-js reads is built from the instance's settings: a change, here or in another process,
  // drops the cached copy.
  settings.onChanged(() => deps.environment.invalidate());
  // Each capability's background job (capabilities.ts): the webhooks' worker, billing's renewal schedule.
  const jobs = startCapabilityJobs(deps);
  const { webhooks, billing: billingSchedule } = jobs;
  // Transactions in an audit context (a Backend API call, a command, a Frontend API request) leave their
  // audit events with the change (docs/audit-log.md). Outside the webhooks' wrapper (set by their job):
  // whether the transaction changed a row is asked before the webhooks' own statements run.
  deps.db = auditing(deps.db);
  const devOutbox = config.mode === 'development' && !config.smtpUrl;
  const retention = startRetention(db, deps.clock, config.retention.intervalSeconds, (err) =>
    // The message only: it names a table or the connection, never a row's content.
    console.warn(
      `identity: purging expired rows failed, next try in ${config.retention.intervalSeconds}s: ${err.message}`,
    ),
  );
  settings.watch((err) =>
    console.warn(`identity: checking the instance settings' version failed, next try soon: ${err.message}`),
  );
  // A key `keys rotate` added from another process is published within SIGNING_KEYS_REFRESH_MS.
  signingKeys.startRefresh(undefined, (err) =>
    console.warn(`identity: reading the signing keys failed, next try soon: ${err.message}`),
  );
  const stop = async () => {
    signingKeys.stop();
    await settings.stop();
    await retention.stop();
    await stopCapabilityJobs(jobs);
    // What waits is written before the database closes: a stop loses no activity.
    await activity.stop();
  };
  const readiness: Dependency = { name: 'identity_database', check: () => pingDatabase(db) };
  return {
    deps,
    publishableKey: keys.publishableKey,
    secretKey: keys.secretKey,
    devOutbox,
    metrics,
    readiness,
    async register(app, { bapiPath, operations = true }) {
      if (operations) {
        registerRequestObservability(app, metrics);
        const operationsDeps = {
          metrics,
          metricsAllowed: metricsAllowed(config.metricsAccess, { proxied: config.trustProxy !== false }),
          dependencies: [readiness],
        };
        for (const route of operationsRoutes)
          app.route({ method: route.method, url: route.path, handler: route.handler(operationsDeps) });
      }
      if (!app.hasDecorator('parseCookie')) await app.register(cookie);
      await app.register(fapiPlugin, { prefix: config.fapiPath, deps });
      // The routes under the Frontend API's path with body readers of their own (fapi/beside-routes.ts).
      await registerBesideRoutes(app, deps);
      await app.register(bapiPlugin, { prefix: bapiPath, deps });
      const smsOutbox = sms?.kind === 'outbox';
      if (devOutbox || smsOutbox) {
        await app.register(devOutboxPlugin, {
          prefix: DEV_OUTBOX_PREFIX,
          db,
          channels: { mail: devOutbox, sms: smsOutbox },
          webhooks,
          public: config.devOutboxPublic,
        });
      }
    },
    retention,
    webhooks,
    billingSchedule,
    settings,
    onInstanceSettingsChanged: (listener) => settings.onChanged(listener),
    instanceSettingsVersion: () => settings.version,
    stop,
    async close() {
      await stop();
      await db.close();
    },
  };
}
