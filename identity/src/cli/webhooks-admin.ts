import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { readInstanceSettings } from '../store/instance-settings.ts';
import {
  attemptsOf,
  endpointsOfEvent,
  eventsBetween,
  findDelivery,
  findWebhookEvent,
  insertDelivery,
  recentDeliveries,
  type DeliveryFilter,
} from '../store/webhooks.ts';
import { subscribes } from '../webhooks/delivery.ts';
import { endpointsOfSettings } from '../webhooks/webhooks.ts';
import { CliError } from './actor-token-admin.ts';
import { openInstanceDatabase, type DatabaseTarget } from './purge-database.ts';

/** Events replayed by one `--since` command at most: a larger range is replayed in several. */
export const MAX_REPLAY = 10_000;

export type WebhooksTarget = DatabaseTarget;

/**
 * The instance's database for `webhooks`: DATABASE_URL (the servers' workers pick up a replay within a
 * second), or the PGlite directory when no server holds it (the next server started delivers it).
 */
export function openWebhooksTarget(env: NodeJS.ProcessEnv): Promise<WebhooksTarget> {
  return openInstanceDatabase(
    env,
    (pgliteDir, holder) =>
      `The database in ${pgliteDir} is in use by process ${holder}. Stop it and run the command again ` +
      `(the deliveries are also shown at /__dev/webhooks.html in development).`,
  );
}

export async function listEndpoints(db: Database, env: NodeJS.ProcessEnv): Promise<string[]> {
  await migrate(db);
  const stored = await readInstanceSettings(db);
  const endpoints = endpointsOfSettings(stored?.settings.webhooks, env);
  if (!endpoints.length) return ['No webhook endpoints in the instance settings (webhooks.endpoints).'];
  const settings = stored!.settings.webhooks!.endpoints;
  return endpoints.map(
    (e) =>
      `${e.id}  ${e.enabled ? 'enabled ' : 'disabled'}  ${e.url}  events: ${e.events.length ? e.events.join(',') : 'all'}` +
      `  secret: ${settings[e.id]!.secret.env}${e.secret ? '' : ' (not set in this environment)'}`,
  );
}

export async function listDeliveries(
  db: Database,
  opts: DeliveryFilter & { limit: number },
): Promise<string[]> {
  await migrate(db);
  const deliveries = await recentDeliveries(db, opts);
  if (!deliveries.length) return ['No deliveries.'];
  const attempts = await attemptsOf(
    db,
    deliveries.map((d) => d.id),
  );
  return deliveries.flatMap((d) => [
    `${d.created_at.toISOString()}  ${d.id}  ${d.event_id}  ${d.type}  → ${d.endpoint_id}  ${d.status}` +
      `  attempts: ${d.attempts}${d.status === 'pending' ? `  next: ${d.next_attempt_at.toISOString()}` : ''}`,
    ...attempts
      .filter((a) => a.delivery_id === d.id)
      .map(
        (a) =>
          `    #${a.attempt} ${a.started_at.toISOString()}  ${a.status_code ?? '-'}  ${a.latency_ms} ms` +
          `${a.error ? `  ${a.error}` : ''}${a.response_excerpt ? `  ${JSON.stringify(a.response_excerpt.slice(0, 120))}` : ''}`,
      ),
  ]);
}

/**
 * Queues the event again: a new delivery per target, attempted by the running workers with the same
 * `svix-id` (receivers that keep ids see a replay for what it is). Targets: `endpointId`, or else every
 * endpoint the event went to before and every configured endpoint subscribed to its type now.
 */
export async function replayEvent(
  db: Database,
  eventId: string,
  endpointId: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<string[]> {
  await migrate(db);
  const event = await findWebhookEvent(db, eventId);
  if (!event) throw new CliError(`There is no webhook event ${eventId} (it may have been purged).`);
  const targets = await targetsOf(db, event, endpointId, env);
  if (!targets.length) throw new CliError(`No endpoint to replay ${eventId} to: name one with --endpoint.`);
  return db.transaction(async (tx) => {
    const now = new Date();
    const ids: string[] = [];
    for (const target of targets)
      ids.push(`${await insertDelivery(tx, event.id, target, now)} ${event.type} → ${target}`);
    return ids;
  });
}

export async function replayRange(
  db: Database,
  since: Date,
  until: Date,
  endpointId: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<string[]> {
  await migrate(db);
  const events = await eventsBetween(db, since, until, MAX_REPLAY + 1);
  if (events.length > MAX_REPLAY) {
    throw new CliError(`More than ${MAX_REPLAY} events in that range: replay a shorter one.`);
  }
  const stored = await readInstanceSettings(db);
  const configured = endpointsOfSettings(stored?.settings.webhooks, env);
  return db.transaction(async (tx) => {
    const now = new Date();
    const lines: string[] = [];
    for (const event of events) {
      // A named endpoint gets the types it subscribes to (all, when it is not in the settings: the
      // product server's own); otherwise the endpoints the event went to and those subscribed now.
      const named = configured.find((e) => e.id === endpointId);
      const targets = endpointId
        ? !named || named.events.length === 0 || named.events.includes(event.type)
          ? [endpointId]
          : []
        : [
            ...new Set([
              ...(await endpointsOfEvent(tx, event.id)),
              ...configured.filter((e) => subscribes(e, event.type)).map((e) => e.id),
            ]),
          ];
      for (const target of targets) {
        lines.push(
          `${await insertDelivery(tx, event.id, target, now)} ${event.id} ${event.type} → ${target}`,
        );
      }
    }
    return lines;
  });
}

/** Queues a delivery's event again to its own endpoint (as the Backend API's replay does). */
export async function replayDelivery(db: Database, deliveryId: string): Promise<string[]> {
  await migrate(db);
  const delivery = await findDelivery(db, deliveryId);
  if (!delivery) throw new CliError(`There is no webhook delivery ${deliveryId} (it may have been purged).`);
  const id = await db.transaction((tx) =>
    insertDelivery(tx, delivery.event_id, delivery.endpoint_id, new Date()),
  );
  return [`${id} ${delivery.event_id} ${delivery.type} → ${delivery.endpoint_id}`];
}

async function targetsOf(
  db: Database,
  event: { id: string; type: string },
  endpointId: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<string[]> {
  if (endpointId) return [endpointId];
  const stored = await readInstanceSettings(db);
  const configured = endpointsOfSettings(stored?.settings.webhooks, env);
  return [
    ...new Set([
      ...(await endpointsOfEvent(db, event.id)),
      ...configured.filter((e) => subscribes(e, event.type)).map((e) => e.id),
    ]),
  ];
}
