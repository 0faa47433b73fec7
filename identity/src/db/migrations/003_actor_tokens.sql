-- Actor tokens (impersonation): one-time sign-in tickets that open a session carrying `actor`.
-- Only the SHA-256 of the token is kept; the link exists only in the answer to the call that created it.
CREATE TABLE actor_tokens (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  actor jsonb NOT NULL,
  status text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  session_max_duration_seconds integer NOT NULL,
  session_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX actor_tokens_user_idx ON actor_tokens (user_id);
