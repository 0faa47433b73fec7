-- Webhook events (docs/webhooks.md): written in the same transaction as the change that caused them, so
-- an acknowledged change always has its event and a rolled-back one never does. Delivery is separate
-- (migration 024): a worker reads this table, never the request that made the change.
CREATE TABLE webhook_events (
  id text PRIMARY KEY,
  type text NOT NULL,
  -- The whole body delivered: {data, object: 'event', type, timestamp, instance_id, event_attributes}.
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_events_created_at_idx ON webhook_events (created_at, id);
