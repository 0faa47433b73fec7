-- Handshake nonces (docs/satellites.md): what `GET /v1/client/handshake?format=nonce` leaves for the
-- application's server to collect once through the Backend API's `GET /v1/clients/handshake_payload`.
-- Only the nonce's SHA-256 is kept, and the cookie directives are sealed under a key derived from the
-- nonce itself: the table alone gives neither the nonce nor the session token inside the directives.
CREATE TABLE handshake_nonces (
  nonce_hash text PRIMARY KEY,
  sealed_directives text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX handshake_nonces_expires_idx ON handshake_nonces (expires_at);
