-- Second factors: one authenticator app (TOTP) per user, and single-use backup codes.
-- The TOTP secret must stay readable to check codes, so it is sealed (AES-256-GCM under a key derived
-- from the instance secret key, never stored); backup codes are kept only as keyed hashes.
CREATE TABLE totp_secrets (
  id text PRIMARY KEY,
  user_id text NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  sealed_secret text NOT NULL,
  -- Null while the user has not yet proved with a code that their app holds the secret.
  verified_at timestamptz,
  -- The 30-second step of the last accepted code: no code is accepted twice, nor an older one.
  last_used_step integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE backup_codes (
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, code_hash)
);
