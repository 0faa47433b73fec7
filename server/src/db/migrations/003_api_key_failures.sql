-- Failed API-key verifications per client address (docs/api-keys.md): one fixed window per address, kept
-- in the database so every server instance and every restart counts the same failures. A row whose window
-- has ended is as good as none, and is deleted by the next count after it (api-key-failures.ts).
CREATE TABLE api_key_failures (
  address text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  failures integer NOT NULL
);
CREATE INDEX api_key_failures_window_start ON api_key_failures (window_start);
