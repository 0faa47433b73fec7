-- Sign-in tokens (docs/backend-api.md): Clerk's one-time tickets that sign a user in through the Frontend
-- API's `ticket` strategy. Only the token's SHA-256 is kept; the token itself exists only in the answer
-- to the call that created it.
CREATE TABLE sign_in_tokens (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_tokens_user_idx ON sign_in_tokens (user_id);

-- Testing tokens: what @clerk/testing passes as `__clerk_testing_token` to skip bot protection on a
-- development instance. Hash only, like every other secret.
CREATE TABLE testing_tokens (
  token_hash text PRIMARY KEY,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX testing_tokens_expires_idx ON testing_tokens (expires_at);
