-- The instance's allowlist and blocklist of identifiers and its allowed redirect URLs, kept by the operator
-- through the Backend API (docs/backend-api.md) and enforced by the Frontend API (docs/sign-up-modes.md).
--
-- An identifier is stored normalised (an email address or `*@domain` lowercased, a phone number in E.164,
-- a wallet checksummed), so one identifier is listed once: the unique index on its lowercased form decides.
CREATE TABLE allowlist_identifiers (
  id text PRIMARY KEY,
  identifier text NOT NULL,
  -- email_address | phone_number | web3_wallet (a `*@domain` pattern is an email_address)
  identifier_type text NOT NULL CHECK (identifier_type IN ('email_address', 'phone_number', 'web3_wallet')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX allowlist_identifiers_identifier_key ON allowlist_identifiers (lower(identifier));
CREATE INDEX allowlist_identifiers_created_at_idx ON allowlist_identifiers (created_at, id);

CREATE TABLE blocklist_identifiers (
  id text PRIMARY KEY,
  identifier text NOT NULL,
  identifier_type text NOT NULL CHECK (identifier_type IN ('email_address', 'phone_number', 'web3_wallet')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX blocklist_identifiers_identifier_key ON blocklist_identifiers (lower(identifier));
CREATE INDEX blocklist_identifiers_created_at_idx ON blocklist_identifiers (created_at, id);

-- A redirect URL the operator allows besides the instance's own origins (ALLOWED_ORIGINS, PUBLIC_URL).
CREATE TABLE redirect_urls (
  id text PRIMARY KEY,
  url text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX redirect_urls_created_at_idx ON redirect_urls (created_at, id);
