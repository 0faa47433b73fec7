-- Satellite domains (docs/satellites.md). The domains themselves are instance settings (`domains`); these
-- tables hold what the sync between the primary domain and a satellite leaves behind.
--
-- satellite_links: the single-use link token `GET /v1/client/sync` on the primary hands to a satellite's
-- `GET /v1/client/link`, valid 60 seconds; only its SHA-256 is kept, with the client it stands for, the
-- satellite it may be used on and where the browser lands.
CREATE TABLE satellite_links (
  token_hash text PRIMARY KEY,
  client_id text NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  domain_id text NOT NULL,
  redirect_url text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX satellite_links_expires_idx ON satellite_links (expires_at);

-- client_domain_tokens: the `__client` credential a satellite's cookie holds for the same client as the
-- primary's (one client, so signing out anywhere signs out everywhere); hashed like clients.token_hash.
CREATE TABLE client_domain_tokens (
  token_hash text PRIMARY KEY,
  client_id text NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  domain_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX client_domain_tokens_client_idx ON client_domain_tokens (client_id, domain_id);
