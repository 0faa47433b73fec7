-- Failed M2M-token verifications per client address (docs/api-keys.md, "Machines calling the product API"),
-- counted as api_key_failures counts API keys (migration 003, auth/api-key-failures.ts).
CREATE TABLE m2m_token_failures (
  address text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  failures integer NOT NULL
);
CREATE INDEX m2m_token_failures_window_start ON m2m_token_failures (window_start);
