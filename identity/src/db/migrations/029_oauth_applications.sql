-- OAuth applications (the Backend API's `oauthApplications`, docs/oauth-provider.md): the clients this
-- instance signs users in for, as an OAuth 2.1 / OpenID Connect provider.
--
-- A confidential application's client secret is shown once, when it is made (create, rotate_secret, a
-- switch from public to confidential), and kept only as `secret_hash`: HMAC-SHA256 under the instance's
-- code pepper. A public application has none (PKCE is its proof). `redirect_uris` are matched exactly.
-- `declared`: the application comes from the instance settings (`oauthApplications`), synced at start.
CREATE TABLE oauth_applications (
  id text PRIMARY KEY,
  client_id text NOT NULL UNIQUE,
  name text NOT NULL,
  public boolean NOT NULL,
  scopes text NOT NULL,
  redirect_uris jsonb NOT NULL DEFAULT '[]',
  consent_screen_enabled boolean NOT NULL DEFAULT true,
  declared boolean NOT NULL DEFAULT false,
  secret_hash text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT oauth_applications_secret CHECK (public = (secret_hash IS NULL))
);
CREATE INDEX oauth_applications_created_idx ON oauth_applications (created_at, id);
