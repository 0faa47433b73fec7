-- Google One Tap: each ID token is used once. A token that signed someone in or started a sign-up is
-- recorded here by the SHA-256 of its issuer and `jti` (never the token), and refused when it comes
-- back; the record is kept until the token has expired anyway.
CREATE TABLE google_one_tap_tokens (
  token_hash text PRIMARY KEY,
  expire_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX google_one_tap_tokens_expire_idx ON google_one_tap_tokens (expire_at);
