-- Failed OAuth access-token verifications per client address (docs/oauth-provider.md), counted as
-- api_key_failures counts API keys (migration 003, auth/api-key-failures.ts): one fixed window per address.
CREATE TABLE oauth_token_failures (
  address text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  failures integer NOT NULL
);
CREATE INDEX oauth_token_failures_window_start ON oauth_token_failures (window_start);
