import type { Capability } from '../capability.ts';
import { startBillingSchedule, type BillingSchedule } from './renewal-schedule.ts';
import { DAY } from '../retention/retention-rule.ts';

/** Billing: plans, checkouts, payment sources, renewals. */
export const billingCapability = {
  name: 'billing',
  // Renewals, trial ends, scheduled plan changes (docs/billing.md): after the webhooks, whose events they record.
  start: (deps) => startBillingSchedule(deps),
  retention: [
    // Billing: a card form's setup intent lives an hour (billing/gateways/offline-gateway.ts). A day after its
    // expiry it goes, unless its payment method became a payment source (kept or removed: charges and
    // statements read the card through it). Unconfirmed ones are few already (a payer keeps ten at most).
    {
      table: 'billing_setup_intents',
      expired: `expires_at < $1::timestamptz - ${DAY}
       AND (payment_method_ref IS NULL OR NOT EXISTS (
         SELECT 1 FROM billing_payment_sources s
          WHERE s.gateway = billing_setup_intents.gateway AND s.gateway_ref = billing_setup_intents.payment_method_ref))`,
    },
    // A checkout lives an hour (billing/checkouts.ts). One never confirmed — never taken (no
    // confirm_started_at, no payment source: a taken confirm sets both, and a decline keeps the source) and
    // named by no payment attempt's idempotency key (`checkout:<id>:…`, looked up among its payer's) — goes a
    // day after it expired or was abandoned. Completed ones, and any a payment attempt names, stay with the
    // statements and the ledger.
    {
      table: 'billing_checkouts',
      expired: `status <> 'completed' AND expires_at < $1::timestamptz - ${DAY}
       AND confirm_started_at IS NULL AND payment_source_id IS NULL AND subscription_item_id IS NULL
       AND NOT EXISTS (
         SELECT 1 FROM billing_payment_attempts a
          WHERE a.payer_id = billing_checkouts.payer_id AND a.idempotency_key LIKE 'checkout:' || billing_checkouts.id || ':%')`,
    },
  ],
} satisfies Capability<'billing', BillingSchedule>;
