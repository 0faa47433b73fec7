import type { Capability } from '../capability.ts';
import { webhooksCommand } from '../cli/webhooks-commands.ts';
import { startWebhooks, type Webhooks } from './webhooks.ts';

/** Webhooks: events recorded with each change, delivered by a worker. */
export const webhooksCapability = {
  name: 'webhooks',
  // Events written in each change's transaction, delivered by a worker of their own (docs/webhooks.md).
  // It wraps deps.db and the senders so that changes record their events: it starts first.
  start: startWebhooks,
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
  cli: [webhooksCommand],
} satisfies Capability<'webhooks', Webhooks>;
