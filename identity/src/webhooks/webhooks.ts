import type { Database } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { WebhookWorker, type ResolvedEndpoint } from './delivery.ts';
import { emitMarkedChanges, emittingWebhookEvents, mailerEmittingEvents, smsEmittingEvents } from './emit.ts';
import type { WebhookSettings } from './webhook-settings.ts';

/** Webhooks in a running identity provider: its endpoints and its delivery worker. */
export interface Webhooks {
  /** The endpoints now: the instance settings' (secrets read from the environment) and those added here. */
  endpoints(): ResolvedEndpoint[];
  /**
   * Adds an endpoint for this process only (the product server's own, docs/webhooks.md); an endpoint of
   * the instance settings with the same id wins.
   */
  addEndpoint(endpoint: ResolvedEndpoint): void;
  readonly worker: WebhookWorker;
  /** The database without the event hook, for reading deliveries. */
  readonly db: Database;
  stop(): Promise<void>;
}

/** Endpoints of the instance settings, each with the secret its environment variable holds (or null). */
export function endpointsOfSettings(
  settings: WebhookSettings | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedEndpoint[] {
  return Object.entries(settings?.endpoints ?? {}).map(([id, ep]) => ({
    id,
    url: ep.url,
    events: ep.events,
    enabled: ep.enabled,
    secret: env[ep.secret.env] || null,
  }));
}

/**
 * Makes `deps` record events (its database's transactions, its mailer and SMS sender: emit.ts) and
 * starts the delivery worker on the database as it was.
 */
export function startWebhooks(deps: IdentityDeps): Webhooks {
  const raw = deps.db;
  const added = new Map<string, ResolvedEndpoint>();
  const endpoints = () => {
    const configured = endpointsOfSettings(deps.settings.settings.webhooks);
    const ids = new Set(configured.map((e) => e.id));
    return [...configured, ...[...added.values()].filter((e) => !ids.has(e.id))];
  };
  const worker = new WebhookWorker(
    raw,
    endpoints,
    deps.config.webhooks,
    { warn: (message) => console.warn(message) },
    // Marks left by a statement outside any transaction become events here, a round later.
    () => raw.transaction((tx) => emitMarkedChanges(tx, deps, 'leftovers')),
  );
  // After a commit that recorded events, the worker looks at once instead of at its next poll; the kick
  // only schedules a round, so the request answers without waiting for it.
  deps.db = emittingWebhookEvents(
    raw,
    () => deps,
    () => worker.kick(),
  );
  deps.mailer = mailerEmittingEvents(deps.mailer, deps.clock, deps.config.mailFrom);
  if (deps.sms) deps.sms = smsEmittingEvents(deps.sms, deps.clock);
  worker.start();
  // The Backend API's deliveries and replays (bapi/webhooks) read the endpoints and wake the worker.
  deps.webhooks = { endpoints, kick: () => worker.kick() };
  return {
    endpoints,
    addEndpoint(endpoint) {
      added.set(endpoint.id, endpoint);
    },
    worker,
    db: raw,
    stop: () => worker.stop(),
  };
}
