/**
 * The Backend API's objects as the console API passes them on (Clerk's JSON, snake_case), reduced to
 * what the console's pages read.
 */
export interface ConsoleMe {
  userId: string;
  twoFactorEnabled: boolean;
}

export interface Page<T> {
  data: T[];
  total_count: number;
}

export interface Identifier {
  id: string;
  verification: { status: string; strategy?: string | null } | null;
}

export interface ConsoleUser {
  id: string;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  image_url?: string;
  primary_email_address_id: string | null;
  email_addresses: (Identifier & { email_address: string })[];
  phone_numbers: (Identifier & { phone_number: string; reserved_for_second_factor?: boolean })[];
  web3_wallets?: (Identifier & { web3_wallet: string })[];
  external_accounts?: { id: string; provider: string; email_address?: string }[];
  passkeys?: { id: string; name: string }[];
  two_factor_enabled: boolean;
  totp_enabled: boolean;
  backup_code_enabled: boolean;
  banned: boolean;
  locked: boolean;
  lockout_expires_in_seconds?: number | null;
  /** Ours (Backend API only): the operator demanded a new password at the next sign-in. */
  password_reset_required?: boolean;
  public_metadata: Record<string, unknown>;
  private_metadata?: Record<string, unknown>;
  unsafe_metadata: Record<string, unknown>;
  created_at: number;
  last_sign_in_at: number | null;
  last_active_at?: number | null;
}

export interface ConsoleSession {
  id: string;
  user_id: string;
  status: string;
  last_active_at: number;
  expire_at: number;
  created_at: number;
  actor?: Record<string, unknown> | null;
  latest_activity?: { browser_name?: string; device_type?: string; city?: string; country?: string } | null;
}

export interface ConsoleOrganization {
  id: string;
  name: string;
  slug: string | null;
  members_count?: number;
  public_metadata: Record<string, unknown> | null;
  private_metadata?: Record<string, unknown> | null;
  created_at: number;
}

export interface ConsoleMembership {
  id: string;
  role: string;
  created_at: number;
  organization: ConsoleOrganization;
  public_user_data?: {
    user_id: string;
    identifier: string;
    first_name: string | null;
    last_name: string | null;
  };
}

export interface ConsoleInvitation {
  id: string;
  email_address: string;
  role: string;
  status: string;
  created_at: number;
}

export interface UserDetails {
  user: ConsoleUser;
  sessions: ConsoleSession[];
  organization_memberships: ConsoleMembership[];
}

export interface OrganizationDetails {
  organization: ConsoleOrganization;
  memberships: ConsoleMembership[];
  invitations: ConsoleInvitation[];
  parent_id: string | null;
  children_ids: string[];
}

/** GET /console/api/users/:id/credentials: a user's passkeys and live API keys (never a secret). */
export interface UserCredentials {
  passkeys: { id: string; name: string | null; created_at: number | null; last_used_at: number | null }[];
  api_keys: {
    id: string;
    name: string;
    scopes: string[];
    expired: boolean;
    expiration: number | null;
    created_at: number;
    last_used_at: number | null;
  }[];
}

/** Billing's subscription of an organisation (`getOrganizationBillingSubscription`), as the console reads it. */
export interface ConsoleSubscription {
  id: string;
  status: string;
  subscription_items: {
    id: string;
    status: string;
    plan_period: string | null;
    period_start: number | null;
    period_end: number | null;
    is_free_trial: boolean;
    plan: { name: string } | null;
  }[];
}

/** GET /console/api/organizations/:id/details: the roles with their members, the modules, the subscription. */
export interface OrganizationExtras {
  roles: { key: string; name: string; description: string; members_count: number }[];
  modules: Record<'vCiso' | 'compliance' | 'qompanion' | 'hexadiag' | 'passport', boolean>;
  subscription: ConsoleSubscription | null;
}

export interface AuditEvent {
  id: string;
  actor: { type: string; id: string | null };
  action: string;
  subject: { type: string | null; id: string | null };
  summary: Record<string, unknown>;
  ip_address: string | null;
  user_agent: string | null;
  request_id: string | null;
  created_at: number;
}

/** GET /console/api/settings: the effective instance settings (docs/instance-settings.md). */
export interface InstanceSettingsDocument {
  version: number;
  updated_at: number | null;
  settings: Record<string, unknown>;
  settings_file: boolean;
  applied_at_start: string[];
}

/** One leaf the change would change (`before`/`after` absent when the field is added or removed). */
export interface SettingsChange {
  path: string;
  before?: unknown;
  after?: unknown;
}

/** POST /console/api/settings/validate: what applying would do, or every field refused. */
export type SettingsValidation =
  | { valid: true; version: number; changes: SettingsChange[]; restart_required: string[] }
  | { valid: false; errors: { path: string; message: string }[] };

/** POST /console/api/settings/apply: the document as stored, with what changed. */
export interface AppliedSettings extends InstanceSettingsDocument {
  changes: SettingsChange[];
  restart_required: string[];
}

/** GET /console/api/webhooks/endpoints (never the secret). */
export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[] | null;
  enabled: boolean;
  description: string | null;
  source: string;
  secret_set: boolean;
}

export interface WebhookDelivery {
  id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at?: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookAttempt {
  attempt: number;
  started_at: number;
  status_code: number | null;
  latency_ms: number | null;
  response_excerpt: string | null;
  error: string | null;
}

/** GET /console/api/webhooks/deliveries/:id: with the body sent and every attempt. */
export interface WebhookDeliveryDetails extends WebhookDelivery {
  payload: unknown;
  attempts: WebhookAttempt[];
}

/** An invitation to the application (`GET /v1/invitations`); `url` only in the answer that made it. */
export interface ApplicationInvitation {
  id: string;
  email_address: string;
  status: 'pending' | 'accepted' | 'revoked' | 'expired';
  url: string | null;
  expires_at: number | null;
  created_at: number;
}

/** A waitlist entry (`GET /v1/waitlist_entries`), with the invitation it was sent, if any. */
export interface WaitlistEntry {
  id: string;
  email_address: string;
  status: 'pending' | 'invited' | 'completed' | 'rejected';
  invitation: ApplicationInvitation | null;
  created_at: number;
  updated_at: number;
}

/** An identifier of the allow list or the block list (`GET /v1/allowlist_identifiers`…). */
export interface ListedIdentifier {
  id: string;
  identifier: string;
  identifier_type: string;
  created_at: number;
}

/** An API key (`GET /api_keys?subject=`); `secret` never in a list. */
export interface ConsoleApiKey {
  id: string;
  name: string;
  subject: string;
  description: string | null;
  scopes: string[];
  revoked: boolean;
  revocation_reason: string | null;
  expired: boolean;
  expiration: number | null;
  last_used_at: number | null;
  created_at: number;
}

/** An OAuth application (`GET /v1/oauth_applications`); `client_secret` only in the answer that made it. */
export interface ConsoleOAuthApplication {
  id: string;
  name: string;
  client_id: string;
  public: boolean;
  scopes: string;
  redirect_uris: string[];
  created_at: number;
  client_secret?: string;
}

/** A machine (`GET /v1/machines`), with the machines it may call; `secret_key` only when it was made. */
export interface ConsoleMachine {
  id: string;
  name: string;
  default_token_ttl: number;
  scoped_machines: { id: string; name: string }[];
  created_at: number;
  secret_key?: string;
}

/** Money as billing answers it: minor units, and the currency's code (`USD`). */
export interface ConsoleMoney {
  amount: number;
  amount_formatted: string;
  currency: string;
  currency_symbol: string;
}

/** A plan of the catalogue (`billing.getPlanList`), hidden ones included. */
export interface ConsolePlan {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  is_default: boolean;
  publicly_visible: boolean;
  for_payer_type: 'user' | 'org';
  fee: ConsoleMoney;
  annual_monthly_fee: ConsoleMoney;
  features: { id: string; name: string; slug: string; description: string | null }[];
}

/** Who pays: a user for themselves, or an organisation. */
export interface ConsoleBillingPayer {
  id: string;
  user_id: string | null;
  organization_id: string | null;
}

/** One item of a payer's subscription (`GET /v1/billing/subscription_items`). */
export interface ConsoleSubscriptionItem {
  id: string;
  status: string;
  plan_period: 'month' | 'annual' | null;
  period_start: number | null;
  period_end: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  is_free_trial: boolean;
  amount: ConsoleMoney | null;
  plan: { id: string; name: string } | null;
  payer: ConsoleBillingPayer;
}

/** A payment (attempt) of a statement. */
export interface ConsolePayment {
  id: string;
  status: 'pending' | 'paid' | 'failed';
  charge_type: 'checkout' | 'recurring';
  amount: ConsoleMoney;
  paid_at?: number;
  failed_at?: number;
  updated_at: number;
  payment_source: { card_type: string; last4: string } | null;
  subscription_item: { plan: { name: string } | null } | null;
}

/** A payer's month (`GET /v1/billing/statements`): its payments by day, and what was paid in it. */
export interface ConsoleStatement {
  id: string;
  status: 'open' | 'closed';
  timestamp: number;
  payer: ConsoleBillingPayer | null;
  totals: { grand_total: ConsoleMoney };
  groups: { timestamp: number; items: ConsolePayment[] }[];
}
