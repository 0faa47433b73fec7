-- The instance as an OAuth 2.1 / OpenID Connect provider (docs/oauth-provider.md): what oidc-provider
-- stores (authorization codes, access and refresh tokens, grants, its sessions and interactions), and the
-- consents users gave to OAuth applications.
--
-- `oauth_provider_records` is oidc-provider's adapter on one table. A record is found by `id_hash`,
-- HMAC-SHA256 of its id (for tokens and codes, the token itself) under the instance's code pepper: the table
-- holds no usable token. `grant_id`, `account_id` and `client_id` are copied out of the payload so that a
-- grant, or everything a user gave an application, is revoked with one statement.
CREATE TABLE oauth_provider_records (
  model text NOT NULL,
  id_hash text NOT NULL,
  grant_id text,
  account_id text,
  client_id text,
  payload jsonb NOT NULL,
  consumed_at timestamptz,
  expires_at timestamptz,
  PRIMARY KEY (model, id_hash)
);
CREATE INDEX oauth_provider_records_grant_idx ON oauth_provider_records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_provider_records_account_idx ON oauth_provider_records (account_id, client_id)
  WHERE account_id IS NOT NULL;
CREATE INDEX oauth_provider_records_expires_idx ON oauth_provider_records (expires_at);

-- A user's consent to an application, remembered per user, application and scopes: a later authorization
-- asking no more than `scopes` is not asked again. Withdrawn by the user (Frontend API) or the operator
-- (Backend API), which also revokes what the application holds for that user.
CREATE TABLE oauth_consents (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  application_id text NOT NULL REFERENCES oauth_applications (id) ON DELETE CASCADE,
  scopes text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, application_id)
);
