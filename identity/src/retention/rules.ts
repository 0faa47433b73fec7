/**
 * What the purge deletes, table by table: a condition on the table's rows (`$1` is now) that says a row
 * is of no further use. A new table that grows with traffic adds its rule here.
 *
 * Order matters where rows hold on to others: sessions go before the clients they keep alive.
 */
export interface RetentionRule {
  table: string;
  /** SQL condition on the table's rows; `$1` is the current time. */
  expired: string;
}

const DAY = "interval '1 day'";

export const RETENTION_RULES: readonly RetentionRule[] = [
  // Codes live 10 minutes and are single use: a day later neither an attempt nor an audit needs them.
  { table: 'verification_codes', expired: `expire_at < $1::timestamptz - ${DAY}` },
  { table: 'email_links', expired: `expire_at < $1::timestamptz - ${DAY}` },
  { table: 'session_verifications', expired: `expire_at < $1::timestamptz - ${DAY}` },
  // Redirects to a social provider live 10 minutes; spent or not, they are of no use a day later.
  { table: 'oauth_states', expired: `expire_at < $1::timestamptz - ${DAY}` },
  // Google One Tap tokens used: an expired token is refused by its `exp` anyway.
  { table: 'google_one_tap_tokens', expired: `expire_at < $1::timestamptz` },
  // Captcha challenges spent: an expired challenge is refused by its own expiry; passes once over.
  { table: 'captcha_spent_challenges', expired: `expire_at < $1::timestamptz` },
  { table: 'captcha_passes', expired: `pass_until < $1::timestamptz` },
  // Passkey challenges live 5 minutes; a registration never finished leaves its passkey unverified.
  { table: 'passkey_challenges', expired: `expire_at < $1::timestamptz - ${DAY}` },
  { table: 'passkeys', expired: `verified_at IS NULL AND created_at < $1::timestamptz - ${DAY}` },
  // SAML AuthnRequests live 10 minutes; accepted assertion ids are kept until they could not be valid anyway.
  { table: 'saml_requests', expired: `expire_at < $1::timestamptz - ${DAY}` },
  { table: 'saml_assertions', expired: `expire_at < $1::timestamptz` },
  // A connection to a provider never completed (the browser did not come back, or the provider refused):
  // <UserProfile/> shows its error for a day, then it goes.
  {
    table: 'external_accounts',
    expired: `verification_status = 'unverified' AND provider_user_id IS NULL AND verification_expire_at < $1::timestamptz - ${DAY}`,
  },
  // Actor tokens: kept a day past their expiry; the sessions they opened carry their own copy of the actor.
  { table: 'actor_tokens', expired: `expires_at < $1::timestamptz - ${DAY}` },
  // Sign-ins and sign-ups a day past being abandoned, unless their browser still points at them.
  {
    table: 'sign_ins',
    expired: `abandon_at < $1::timestamptz - ${DAY} AND NOT EXISTS (SELECT 1 FROM clients c WHERE c.sign_in_id = sign_ins.id)`,
  },
  {
    table: 'sign_ups',
    expired: `abandon_at < $1::timestamptz - ${DAY} AND NOT EXISTS (SELECT 1 FROM clients c WHERE c.sign_up_id = sign_ups.id)`,
  },
  // Rate-limit windows are at most a day long: a window that began two days ago counts for nothing.
  { table: 'rate_limits', expired: `window_start < $1::timestamptz - interval '2 days'` },
  // Sessions ended, revoked or expired 30 days ago (their activity rows and verifications go with them):
  // the last month stays for the Backend API and for people asking "where was I signed in?".
  {
    table: 'sessions',
    expired: `(expire_at < $1::timestamptz - interval '30 days'
       OR (status NOT IN ('active', 'pending') AND updated_at < $1::timestamptz - interval '30 days'))`,
  },
  // A browser with no session left, idle for a day: a signed-out or never-used cookie, or a flood of
  // `PUT /client`. Its pending sign-in or sign-up, if any, goes with it.
  {
    table: 'clients',
    expired: `updated_at < $1::timestamptz - ${DAY} AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.client_id = clients.id)`,
  },
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
  // The development outbox keeps a week of mail and SMS.
  { table: 'outbox', expired: `created_at < $1::timestamptz - interval '7 days'` },
  // Webhook events (their deliveries and attempts go with them): a week once every delivery succeeded,
  // a month when one failed (long enough to see why and replay it), never while one is still retrying.
  {
    table: 'webhook_events',
    expired: `created_at < $1::timestamptz - interval '7 days'
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id AND d.status = 'pending')
       AND (created_at < $1::timestamptz - interval '30 days'
         OR NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id AND d.status = 'failed'))`,
  },
];
