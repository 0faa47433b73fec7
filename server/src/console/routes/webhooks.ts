import { z } from '@app/contract';
import { consoleRoute } from '../console-route.ts';
import { pageQuery } from './ids.ts';

/** Ids and filters as the Backend API checks them (identity's webhook-delivery-routes.ts). */
const deliveryIdParam = z.string().regex(/^msg_[A-Za-z0-9]{1,64}$/, 'a msg_ id');
const deliveryFilters = {
  endpoint_id: z
    .string()
    .regex(/^ep_[A-Za-z0-9_-]{1,64}$/, 'an ep_ id')
    .optional(),
  event_type: z
    .string()
    .regex(/^[a-zA-Z]+\.[a-zA-Z_]+$/, 'an event type (user.created)')
    .max(100)
    .optional(),
  status: z.enum(['pending', 'delivered', 'failed']).optional(),
};

/** GET /console/api/webhooks/endpoints — the endpoints this instance delivers to (`GET /v1/webhook_endpoints`). */
export const listWebhookEndpointsRoute = consoleRoute({
  method: 'GET',
  path: '/webhooks/endpoints',
  permission: 'operator',
  async handler({ operator }, { backend }) {
    return backend.call('GET', '/webhook_endpoints', { operatorId: operator.userId });
  },
});

/**
 * GET /console/api/webhooks/deliveries?endpoint_id=&event_type=&status=&limit=&offset= — newest first
 * (`GET /v1/webhook_deliveries`): `{ data, total_count }`.
 */
export const listWebhookDeliveriesRoute = consoleRoute({
  method: 'GET',
  path: '/webhooks/deliveries',
  permission: 'operator',
  input: { query: z.object({ ...deliveryFilters, ...pageQuery }) },
  async handler({ operator, query }, { backend }) {
    return backend.call('GET', '/webhook_deliveries', { operatorId: operator.userId, query });
  },
});

/** GET /console/api/webhooks/deliveries/:deliveryId — a delivery with its payload and its attempts. */
export const getWebhookDeliveryRoute = consoleRoute({
  method: 'GET',
  path: '/webhooks/deliveries/:deliveryId',
  permission: 'operator',
  input: { params: { deliveryId: deliveryIdParam } },
  async handler({ operator, params: { deliveryId } }, { backend }) {
    return backend.call('GET', `/webhook_deliveries/${deliveryId}`, { operatorId: operator.userId });
  },
});

/**
 * POST /console/api/webhooks/deliveries/:deliveryId/replay — a new delivery of the same event to the
 * same endpoint (`POST /v1/webhook_deliveries/:id/replay`), recorded as the operator's
 * (`webhook_delivery.replay`). Answers the new delivery.
 */
export const replayWebhookDeliveryRoute = consoleRoute({
  method: 'POST',
  path: '/webhooks/deliveries/:deliveryId/replay',
  permission: 'operator',
  input: { params: { deliveryId: deliveryIdParam } },
  async handler({ operator, params: { deliveryId } }, { backend }) {
    return backend.call('POST', `/webhook_deliveries/${deliveryId}/replay`, { operatorId: operator.userId });
  },
});

export const webhookConsoleRoutes = [
  listWebhookEndpointsRoute,
  listWebhookDeliveriesRoute,
  getWebhookDeliveryRoute,
  replayWebhookDeliveryRoute,
];
