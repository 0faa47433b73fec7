-- Bot protection (captcha). A proof-of-work challenge is used once: a token that passed is recorded here by
-- the SHA-256 of its challenge's signature (never the token) until the challenge expires anyway, so a
-- replay on this or any other instance finds it.
CREATE TABLE captcha_spent_challenges (
  challenge_hash text PRIMARY KEY,
  expire_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX captcha_spent_challenges_expire_idx ON captcha_spent_challenges (expire_at);

-- A browser (client) that solved the captcha modal (`POST /v1/client/verify`): it is not asked again until
-- `pass_until`.
CREATE TABLE captcha_passes (
  client_id text PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
  pass_until timestamptz NOT NULL
);
CREATE INDEX captcha_passes_pass_until_idx ON captcha_passes (pass_until);
