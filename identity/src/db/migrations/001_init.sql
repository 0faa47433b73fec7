-- Instance-wide secrets: JWT signing keys and the Backend API secret key (hashed).
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  private_jwk jsonb NOT NULL,
  public_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE instance_settings (
  key text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id text PRIMARY KEY,
  external_id text UNIQUE,
  first_name text,
  last_name text,
  username text UNIQUE,
  password_hash text,
  password_updated_at timestamptz,
  primary_email_address_id text,
  public_metadata jsonb NOT NULL DEFAULT '{}',
  private_metadata jsonb NOT NULL DEFAULT '{}',
  unsafe_metadata jsonb NOT NULL DEFAULT '{}',
  create_organization_enabled boolean NOT NULL DEFAULT true,
  create_organizations_limit integer,
  delete_self_enabled boolean NOT NULL DEFAULT true,
  failed_verification_attempts integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  last_sign_in_at timestamptz,
  last_active_at timestamptz,
  legal_accepted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE email_addresses (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email_address text NOT NULL,
  verified_at timestamptz,
  verification_strategy text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX email_addresses_address_key ON email_addresses (lower(email_address));
CREATE INDEX email_addresses_user_idx ON email_addresses (user_id);

-- A client is one browser; the __client cookie carries an opaque token whose SHA-256 is stored here.
CREATE TABLE clients (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  sign_in_id text,
  sign_up_id text,
  last_active_session_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
  id text PRIMARY KEY,
  client_id text NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status text NOT NULL,
  last_active_organization_id text,
  actor jsonb,
  first_factor_verified_at timestamptz NOT NULL DEFAULT now(),
  expire_at timestamptz NOT NULL,
  abandon_at timestamptz NOT NULL,
  last_active_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_client_idx ON sessions (client_id);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE sign_ins (
  id text PRIMARY KEY,
  client_id text NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  status text NOT NULL,
  identifier text,
  user_id text REFERENCES users(id) ON DELETE CASCADE,
  first_factor_verification jsonb,
  second_factor_verification jsonb,
  created_session_id text,
  abandon_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sign_ups (
  id text PRIMARY KEY,
  client_id text NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  status text NOT NULL,
  email_address text,
  email_verification jsonb,
  first_name text,
  last_name text,
  password_hash text,
  unsafe_metadata jsonb NOT NULL DEFAULT '{}',
  legal_accepted_at timestamptz,
  created_user_id text,
  created_session_id text,
  abandon_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One-time codes, stored as keyed hashes. `subject` names what the code proves,
-- e.g. 'sign_up:sua_…:email_address' or 'sign_in:sia_…:email_code'.
CREATE TABLE verification_codes (
  id text PRIMARY KEY,
  subject text NOT NULL,
  code_hash text NOT NULL,
  expire_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  consumed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX verification_codes_subject_idx ON verification_codes (subject, created_at DESC);

-- Fixed-window counters for rate limits (per IP, per identifier), shared by every instance.
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  count integer NOT NULL
);

-- Development outbox: mail and SMS captured instead of sent.
CREATE TABLE outbox (
  id text PRIMARY KEY,
  channel text NOT NULL,
  recipient text NOT NULL,
  subject text,
  text_body text NOT NULL,
  html_body text,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX outbox_created_idx ON outbox (channel, created_at DESC);
