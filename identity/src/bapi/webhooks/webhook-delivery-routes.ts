import type { IdentityDeps } from '../../deps.ts';
import { errors } from '../../errors.ts';
import { pageOf } from '../../organizations/invitations.ts';
import {
  attemptsOf,
  countDeliveries,
  findDelivery,
  insertDelivery,
  recentDeliveries,
  type AttemptRow,
  type DeliveryListRow,
} from '../../store/webhooks.ts';
import type { ResolvedEndpoint } from '../../webhooks/delivery.ts';
import { endpointsOfSettings } from '../../webhooks/webhooks.ts';
import { queryInput } from '../json-input.ts';
import { queryString } from '../request-input.ts';
import type { BapiRoute } from '../route.ts';

/**
 * Backend API: webhook endpoints and deliveries (our extension; hosted Clerk shows them in its dashboard,
 * through Svix, with no Backend API). Read from the delivery worker's own tables (docs/webhooks.md); a
 * replay queues a new delivery that the workers send and sign anew. Never a signing secret: an endpoint
 * shows the name of the variable holding it and whether this process has it.
 */

type Query = Record<string, string | string[] | undefined>;

const STATUSES = ['pending', 'delivered', 'failed'];
const DELIVERY_ID = /^msg_[A-Za-z0-9]{1,64}$/;
const ENDPOINT_ID = /^ep_[A-Za-z0-9_-]{1,64}$/;
const EVENT_ID = /^evt_[A-Za-z0-9]{1,64}$/;
const EVENT_TYPE = /^[a-zA-Z]+\.[a-zA-Z_]+$/;

/** A filter's value, checked against its shape (a value of no possible match is refused, not ignored). */
function filterValue(query: Query, name: string, shape: RegExp, what: string): string | undefined {
  const value = queryString(query, name);
  if (value === undefined || value === '') return undefined;
  if (value.length > 128 || !shape.test(value))
    throw errors.paramValueInvalid(name, `${name} must be ${what}.`);
  return value;
}

function endpointsOf(deps: IdentityDeps): ResolvedEndpoint[] {
  return deps.webhooks?.endpoints() ?? endpointsOfSettings(deps.settings.settings.webhooks);
}

const ms = (d: Date | null) => (d ? new Date(d).getTime() : null);

function deliveryJSON(d: DeliveryListRow) {
  return {
    object: 'webhook_delivery',
    id: d.id,
    event_id: d.event_id,
    event_type: d.type,
    endpoint_id: d.endpoint_id,
    status: d.status,
    attempt_count: d.attempts,
    last_status_code: d.last_status_code,
    last_error: d.last_error,
    next_attempt_at: d.status === 'pending' ? ms(d.next_attempt_at) : null,
    created_at: ms(d.created_at),
    updated_at: ms(d.updated_at),
  };
}

function attemptJSON(a: AttemptRow) {
  return {
    attempt: a.attempt,
    started_at: ms(a.started_at),
    status_code: a.status_code,
    latency_ms: a.latency_ms,
    response_excerpt: a.response_excerpt,
    error: a.error,
  };
}

function endpointJSON(e: ResolvedEndpoint, deps: IdentityDeps) {
  const declared = deps.settings.settings.webhooks?.endpoints[e.id];
  return {
    object: 'webhook_endpoint',
    id: e.id,
    url: e.url,
    events: e.events,
    enabled: e.enabled,
    description: declared?.description ?? null,
    /** `settings`: the instance settings' `webhooks.endpoints`; `process`: added by the server embedding the provider. */
    source: declared ? 'settings' : 'process',
    /** The environment variable holding the signing secret (never the secret), null for a process's own. */
    secret_env: declared?.secret.env ?? null,
    /** Whether this process has the secret, so can sign deliveries to it. */
    secret_set: e.secret !== null,
  };
}

async function deliveryOf(id: string, deps: IdentityDeps) {
  if (!DELIVERY_ID.test(id)) throw errors.notFound('webhook_delivery');
  const delivery = await findDelivery(deps.db, id);
  if (!delivery) throw errors.notFound('webhook_delivery');
  return delivery;
}

export const webhookDeliveryRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/webhook_endpoints',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(_req, deps) {
      const all = endpointsOf(deps);
      return { data: all.map((e) => endpointJSON(e, deps)), total_count: all.length };
    },
  },
  {
    method: 'GET',
    path: '/v1/webhook_deliveries',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      query: queryInput({
        limit: 'page',
        offset: 'page',
        endpoint_id: 'text',
        event_type: 'text',
        event_id: 'text',
        status: 'enum',
      }),
    },
    async handler(req, deps) {
      const status = queryString(req.query, 'status') || undefined;
      if (status !== undefined && !STATUSES.includes(status)) {
        throw errors.paramValueInvalid('status', `status must be one of ${STATUSES.join(', ')}.`);
      }
      const filter = {
        endpointId: filterValue(req.query, 'endpoint_id', ENDPOINT_ID, 'an endpoint id (ep_…)'),
        eventType: filterValue(req.query, 'event_type', EVENT_TYPE, 'an event type (user.created)'),
        eventId: filterValue(req.query, 'event_id', EVENT_ID, 'an event id (evt_…)'),
        status,
      };
      const rows = await recentDeliveries(deps.db, { ...filter, ...pageOf(req.query) });
      return { data: rows.map(deliveryJSON), total_count: await countDeliveries(deps.db, filter) };
    },
  },
  {
    method: 'GET',
    path: '/v1/webhook_deliveries/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const delivery = await deliveryOf(req.params.id!, deps);
      const attempts = await attemptsOf(deps.db, [delivery.id]);
      return {
        ...deliveryJSON(delivery),
        // The body every attempt sent (an `email.created` carries the message: docs/webhooks.md).
        payload: delivery.payload,
        attempts: attempts.map(attemptJSON),
      };
    },
  },
  {
    method: 'POST',
    path: '/v1/webhook_deliveries/:id/replay',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    // Recorded on the delivery replayed (`webhook_delivery.replay`); the new delivery is in the answer.
    async handler(req, deps) {
      const delivery = await deliveryOf(req.params.id!, deps);
      const endpoint = endpointsOf(deps).find((e) => e.id === delivery.endpoint_id);
      if (!endpoint || !endpoint.enabled) {
        throw errors.paramValueInvalid(
          'id',
          `The endpoint ${delivery.endpoint_id} is ${endpoint ? 'disabled' : 'no longer configured'}: nothing would be sent.`,
        );
      }
      const now = deps.clock();
      const id = await deps.db.transaction((tx) =>
        insertDelivery(tx, delivery.event_id, delivery.endpoint_id, now),
      );
      // Sent within the worker's next round; woken now so the operator sees it go out at once.
      deps.webhooks?.kick();
      return deliveryJSON((await findDelivery(deps.db, id))!);
    },
  },
];
