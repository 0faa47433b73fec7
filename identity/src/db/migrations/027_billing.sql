-- Billing (docs/billing.md): payers, payment sources, checkouts, subscriptions, payment attempts, statements
-- and the ledger. Plans and features are instance settings (billing.plans, billing.features); rows name a
-- plan by slug and keep a snapshot of what was bought (name, fees, features), so a plan changed or removed
-- from the settings later leaves subscriptions and statements as they were. Money is in integer minor units.

-- Who pays: a user for themselves or an organisation (exactly one), created on first use.
CREATE TABLE billing_payers (
  id text PRIMARY KEY,
  user_id text REFERENCES users(id) ON DELETE CASCADE,
  organization_id text REFERENCES organizations(id) ON DELETE CASCADE,
  -- The gateway's customer (Stripe's cus_…); null for the offline gateway.
  gateway_customer_id text,
  default_payment_source_id text,
  -- A payer gets one free trial.
  trial_used boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((user_id IS NULL) <> (organization_id IS NULL))
);
CREATE UNIQUE INDEX billing_payers_user_key ON billing_payers (user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX billing_payers_org_key ON billing_payers (organization_id) WHERE organization_id IS NOT NULL;

-- A set-up payment method awaiting attachment: the gateway's setup intent (Stripe's seti_…, or the
-- offline gateway's) with its client secret's hash, bound to the payer that asked for it.
CREATE TABLE billing_setup_intents (
  id text PRIMARY KEY,
  payer_id text NOT NULL REFERENCES billing_payers(id) ON DELETE CASCADE,
  gateway text NOT NULL,
  client_secret_hash text NOT NULL UNIQUE,
  -- Filled when the browser confirms it (offline gateway): the payment method it made.
  payment_method_ref text UNIQUE,
  card_brand text,
  card_last4 text,
  card_exp_month integer,
  card_exp_year integer,
  -- Card numbers the offline gateway declines (Stripe's test-card conventions), kept as a flag only.
  declines boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX billing_setup_intents_payer_idx ON billing_setup_intents (payer_id);

CREATE TABLE billing_payment_sources (
  id text PRIMARY KEY,
  payer_id text NOT NULL REFERENCES billing_payers(id) ON DELETE CASCADE,
  gateway text NOT NULL,
  -- The gateway's payment method (Stripe's pm_…); unique per gateway so one method is attached once.
  gateway_ref text NOT NULL,
  payment_method text NOT NULL DEFAULT 'card',
  card_type text NOT NULL DEFAULT '',
  last4 text NOT NULL DEFAULT '',
  wallet_type text,
  declines boolean NOT NULL DEFAULT false,
  -- active | expired | disconnected
  status text NOT NULL DEFAULT 'active',
  created_at timestamptz NOT NULL,
  removed_at timestamptz
);
CREATE UNIQUE INDEX billing_payment_sources_ref_key ON billing_payment_sources (gateway, gateway_ref);
CREATE INDEX billing_payment_sources_payer_idx ON billing_payment_sources (payer_id, created_at) WHERE removed_at IS NULL;
ALTER TABLE billing_payers
  ADD CONSTRAINT billing_payers_default_source_fk FOREIGN KEY (default_payment_source_id)
  REFERENCES billing_payment_sources(id) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;

-- One subscription per payer; its items are the plans it has had and will have.
CREATE TABLE billing_subscriptions (
  id text PRIMARY KEY,
  payer_id text NOT NULL UNIQUE REFERENCES billing_payers(id) ON DELETE CASCADE,
  -- active | past_due
  status text NOT NULL,
  created_at timestamptz NOT NULL,
  active_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  past_due_at timestamptz
);

CREATE TABLE billing_subscription_items (
  id text PRIMARY KEY,
  subscription_id text NOT NULL REFERENCES billing_subscriptions(id) ON DELETE CASCADE,
  payer_id text NOT NULL REFERENCES billing_payers(id) ON DELETE CASCADE,
  plan_slug text NOT NULL,
  -- What was bought: {name, description, payerType, monthlyFee, annualMonthlyFee, currency, features[], isDefault}
  plan_snapshot jsonb NOT NULL,
  plan_period text NOT NULL CHECK (plan_period IN ('month', 'annual')),
  -- upcoming | active | past_due | ended | abandoned
  status text NOT NULL,
  -- The fee per period, in minor units (0 for a free plan).
  amount integer NOT NULL,
  currency text NOT NULL,
  payment_source_id text REFERENCES billing_payment_sources(id) ON DELETE SET NULL,
  is_free_trial boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  period_start timestamptz NOT NULL,
  -- Null for the default free plan, which does not renew.
  period_end timestamptz,
  canceled_at timestamptz,
  past_due_at timestamptz,
  ended_at timestamptz,
  -- Renewals: the next time the schedule looks at this item, and which process holds it until when.
  next_action_at timestamptz,
  lease_owner text,
  lease_until timestamptz
);
CREATE INDEX billing_subscription_items_subscription_idx ON billing_subscription_items (subscription_id, created_at);
CREATE INDEX billing_subscription_items_due_idx ON billing_subscription_items (next_action_at)
  WHERE next_action_at IS NOT NULL;

-- A checkout: the plan and period a payer asked for, its totals as computed when it was made, and once
-- confirmed the charge and the item it made. A confirm is taken once (confirm_started_at under the row's
-- lock); a retry while it runs is 409 checkout_already_in_progress, after it answers the same result.
CREATE TABLE billing_checkouts (
  id text PRIMARY KEY,
  payer_id text NOT NULL REFERENCES billing_payers(id) ON DELETE CASCADE,
  -- The user who started it (an organisation's billing manager, or the user paying for themselves).
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  plan_slug text NOT NULL,
  plan_period text NOT NULL CHECK (plan_period IN ('month', 'annual')),
  -- needs_confirmation | completed | abandoned
  status text NOT NULL,
  totals jsonb NOT NULL,
  is_immediate_plan_change boolean NOT NULL,
  plan_period_start timestamptz,
  free_trial_ends_at timestamptz,
  payment_source_id text REFERENCES billing_payment_sources(id) ON DELETE SET NULL,
  subscription_item_id text REFERENCES billing_subscription_items(id) ON DELETE SET NULL,
  confirm_started_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX billing_checkouts_payer_idx ON billing_checkouts (payer_id, created_at);

-- Statements group a payer's payments by calendar month (UTC); open until the month is over.
CREATE TABLE billing_statements (
  id text PRIMARY KEY,
  payer_id text NOT NULL REFERENCES billing_payers(id) ON DELETE CASCADE,
  month date NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (payer_id, month)
);

CREATE TABLE billing_payment_attempts (
  id text PRIMARY KEY,
  payer_id text NOT NULL REFERENCES billing_payers(id) ON DELETE CASCADE,
  statement_id text NOT NULL REFERENCES billing_statements(id) ON DELETE CASCADE,
  subscription_item_id text REFERENCES billing_subscription_items(id) ON DELETE SET NULL,
  payment_source_id text REFERENCES billing_payment_sources(id) ON DELETE SET NULL,
  -- checkout | recurring
  charge_type text NOT NULL,
  -- pending | paid | failed
  status text NOT NULL,
  amount integer NOT NULL,
  currency text NOT NULL,
  -- Sent to the gateway with the charge, so a retried charge is charged once.
  idempotency_key text NOT NULL UNIQUE,
  gateway_ref text,
  failure_code text,
  paid_at timestamptz,
  failed_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX billing_payment_attempts_payer_idx ON billing_payment_attempts (payer_id, created_at);
CREATE INDEX billing_payment_attempts_statement_idx ON billing_payment_attempts (statement_id);

-- Every movement of money, signed from the payer's point of view: charge (+, what the payer paid),
-- refund (−), credit granted (− : owed back to the payer, e.g. the unused part of an upgraded plan),
-- credit applied (+ : credit used towards a charge). Sums reconcile with the payment attempts.
CREATE TABLE billing_ledger (
  id bigserial PRIMARY KEY,
  payer_id text NOT NULL REFERENCES billing_payers(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('charge', 'refund', 'credit_granted', 'credit_applied')),
  amount integer NOT NULL,
  currency text NOT NULL,
  payment_attempt_id text REFERENCES billing_payment_attempts(id) ON DELETE SET NULL,
  subscription_item_id text REFERENCES billing_subscription_items(id) ON DELETE SET NULL,
  memo text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL
);
CREATE INDEX billing_ledger_payer_idx ON billing_ledger (payer_id, id);
