-- Enterprise SSO (SAML 2.0 and OpenID Connect connections, docs/enterprise-sso.md). The connections
-- themselves are instance settings (the `enterpriseConnections` of the settings document); these tables
-- keep what happens with them.

-- The enterprise account a user signed in with: the IdP's user (SAML NameID, OIDC `sub`) at one
-- connection. (connection_id, provider_user_id) is how a returning user is recognised.
CREATE TABLE enterprise_accounts (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  connection_id text NOT NULL,
  protocol text NOT NULL CHECK (protocol IN ('saml', 'oidc')),
  provider_user_id text NOT NULL,
  email_address text NOT NULL,
  first_name text,
  last_name text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX enterprise_accounts_connection_key ON enterprise_accounts (connection_id, provider_user_id);
CREATE INDEX enterprise_accounts_user_idx ON enterprise_accounts (user_id);

-- A SAML AuthnRequest in flight. Its ID travels through the IdP and comes back as the response's
-- InResponseTo; only its SHA-256 is kept. It is bound to the browser's client and the one sign-in it was
-- made for, used once (consumed_at) and short-lived (expire_at). The ACS, which the IdP's page posts
-- cross-site without our cookies, leaves its outcome here (`outcome`: who signed in, or why not) with a
-- one-time handoff (its SHA-256 kept), which the browser's next request to our origin, with its cookies,
-- spends (fapi/enterprise-sso/saml-acs-complete.ts).
CREATE TABLE saml_requests (
  id text PRIMARY KEY,
  request_id_hash text NOT NULL UNIQUE,
  connection_id text NOT NULL,
  client_id text NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  sign_in_id text NOT NULL,
  redirect_url text,
  action_complete_redirect_url text,
  expire_at timestamptz NOT NULL,
  consumed_at timestamptz,
  outcome jsonb,
  handoff_hash text UNIQUE,
  handoff_expire_at timestamptz,
  handoff_used_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX saml_requests_expire_idx ON saml_requests (expire_at);

-- Every assertion ID an ACS accepted, per connection, until it could no longer be valid anyway: a
-- replayed assertion is refused by every instance on the database (the primary key decides).
CREATE TABLE saml_assertions (
  connection_id text NOT NULL,
  assertion_id text NOT NULL,
  expire_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (connection_id, assertion_id)
);
CREATE INDEX saml_assertions_expire_idx ON saml_assertions (expire_at);

-- A sign-in whose email address belongs to a connection's domain: its only first factor is enterprise_sso.
ALTER TABLE sign_ins ADD COLUMN enterprise_connection_id text;
