-- Social sign-in (OAuth 2 / OpenID Connect): the accounts users hold at providers, and the short-lived
-- state of each redirect to a provider.

-- One row per provider account linked to a user. (provider, provider_user_id) is how a returning user is
-- recognised; the email the provider asserted is kept for display and for Clerk's `external_accounts[]`.
CREATE TABLE external_accounts (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  provider text NOT NULL,
  provider_user_id text NOT NULL,
  email_address text,
  email_verified boolean NOT NULL DEFAULT false,
  first_name text,
  last_name text,
  username text,
  image_url text,
  approved_scopes text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX external_accounts_provider_key ON external_accounts (provider, provider_user_id);
CREATE INDEX external_accounts_user_idx ON external_accounts (user_id);

-- A redirect to a provider in flight. `state` travels through the provider and back; only its SHA-256 is
-- kept, so a copy of the database cannot finish anyone's sign-in. It is bound to the browser's client and
-- to the one sign-in or sign-up it was made for, used once (consumed_at) and short-lived (expire_at).
CREATE TABLE oauth_states (
  id text PRIMARY KEY,
  state_hash text NOT NULL UNIQUE,
  client_id text NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  attempt_kind text NOT NULL CHECK (attempt_kind IN ('sign_in', 'sign_up')),
  attempt_id text NOT NULL,
  strategy text NOT NULL,
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  redirect_url text,
  action_complete_redirect_url text,
  expire_at timestamptz NOT NULL,
  consumed_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX oauth_states_expire_idx ON oauth_states (expire_at);

-- What the provider told us about the person, kept on the attempt between the callback and the transfer
-- (sign-in → sign-up when no account exists, sign-up → sign-in when one does).
ALTER TABLE sign_ins ADD COLUMN external_identity jsonb;
ALTER TABLE sign_ups ADD COLUMN external_identity jsonb;
ALTER TABLE sign_ups ADD COLUMN external_account_verification jsonb;
