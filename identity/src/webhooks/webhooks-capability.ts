import type { Capability } from '../capability.ts';

/** Webhooks: events recorded with each change, delivered by a worker. */
export const webhooksCapability: Capability = {
  name: 'webhooks',
  retention: [
    // Webhook events (their deliveries and attempts go with them): a week once every delivery succeeded,
    // a month when one failed (long enough to see why and replay it), never while one is still retrying.
    {
      table: 'webhook_events',
      expired: `created_at < $1::timestamptz - interval '7 days'
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id AND d.status = 'pending')
       AND (created_at < $1::timestamptz - interval '30 days'
         OR NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id AND d.status = 'failed'))`,
    },
  ],
};
