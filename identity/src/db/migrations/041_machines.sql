-- Machine identities (docs/backend-api.md, `machines` and `m2m`): machines the operator makes, the
-- scopes between them (which machine may present its tokens to which) and their machine-to-machine
-- tokens. A machine's secret key is kept twice: as a keyed hash to find it by, and sealed under the
-- instance secret key, because Clerk's `getSecretKey` shows it again. A token is kept as a keyed hash
-- only: it exists in the answer that created it and nowhere else.
CREATE TABLE machines (
  id text PRIMARY KEY,
  name text NOT NULL,
  default_token_ttl integer NOT NULL,
  secret_hash text NOT NULL UNIQUE,
  secret_sealed text NOT NULL,
  -- The key replaced by a rotation, accepted until `previous_secret_expires_at`.
  previous_secret_hash text UNIQUE,
  previous_secret_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX machines_created_idx ON machines (created_at DESC, id DESC);

-- `from_machine_id` may present its tokens to `to_machine_id`.
CREATE TABLE machine_scopes (
  from_machine_id text NOT NULL REFERENCES machines(id) ON DELETE CASCADE,
  to_machine_id text NOT NULL REFERENCES machines(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (from_machine_id, to_machine_id),
  CHECK (from_machine_id <> to_machine_id)
);
CREATE INDEX machine_scopes_to_idx ON machine_scopes (to_machine_id);

CREATE TABLE m2m_tokens (
  id text PRIMARY KEY,
  machine_id text NOT NULL REFERENCES machines(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  -- The machines the token's machine was scoped to when it was made (what Clerk answers as `scopes`).
  scopes text[] NOT NULL,
  claims jsonb,
  expires_at timestamptz,
  revoked_at timestamptz,
  revocation_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX m2m_tokens_machine_idx ON m2m_tokens (machine_id);
