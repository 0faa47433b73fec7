-- Each organisation's subscription flag (spec §3's hasActiveSubscription), derived from the identity
-- provider's billing (docs/billing.md): the last answer of the Backend API's
-- GET /organizations/{id}/billing/subscription, reduced to YES, NO or TRIAL. Written only by the billing
-- webhooks and the reconciliation; projected into the organisation's public metadata through the outbox.
-- No row: NO. Organisation ids are the identity provider's, not foreign keys (see 001).
CREATE TABLE organization_subscriptions (
  organization_id text PRIMARY KEY,
  status text NOT NULL CONSTRAINT organization_subscriptions_status CHECK (status IN ('YES', 'NO', 'TRIAL')),
  -- The provider's subscription id (csub_…), when it has one; for support, not for logic.
  subscription_id text,
  -- When the provider was last asked: webhooks arriving out of order all re-ask, so the newest answer wins.
  checked_at timestamptz NOT NULL DEFAULT now()
);
