-- API keys (<APIKeys/> in <UserProfile/> and <OrganizationProfile/>, the Backend API's `apiKeys`): machine
-- credentials of a user or of an organisation. The subject is one of the two owner columns, so deleting
-- the user or the organisation deletes its keys.
--
-- The secret is kept twice, neither in the clear: `secret_hash` (HMAC-SHA256 under the instance's code
-- pepper) finds the key when a secret is presented, and `secret_sealed` (AES-256-GCM under a key derived
-- from the instance secret key, bound to the row's id) lets its owner reveal it again, as clerk-js does
-- on "Show" and "Copy" at any time.
--
-- `last_used_at` moves at most once a minute per key (api-keys/api-key-service.ts), not on every call.
-- A revoked key is kept (its name becomes free again) so an audit still finds it.
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  user_id text REFERENCES users(id) ON DELETE CASCADE,
  organization_id text REFERENCES organizations(id) ON DELETE CASCADE,
  type text NOT NULL DEFAULT 'api_key',
  name text NOT NULL,
  description text,
  scopes jsonb NOT NULL DEFAULT '[]',
  claims jsonb,
  secret_hash text NOT NULL,
  secret_sealed text NOT NULL,
  created_by text,
  expires_at timestamptz,
  revoked_at timestamptz,
  revocation_reason text,
  last_used_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT api_keys_one_subject CHECK ((user_id IS NULL) <> (organization_id IS NULL))
);
CREATE UNIQUE INDEX api_keys_secret_hash_key ON api_keys (secret_hash);
-- A name is taken once among a subject's keys that are not revoked (409 on a second).
CREATE UNIQUE INDEX api_keys_user_name_key ON api_keys (user_id, name) WHERE revoked_at IS NULL AND user_id IS NOT NULL;
CREATE UNIQUE INDEX api_keys_org_name_key ON api_keys (organization_id, name)
  WHERE revoked_at IS NULL AND organization_id IS NOT NULL;
CREATE INDEX api_keys_user_idx ON api_keys (user_id, created_at) WHERE user_id IS NOT NULL;
CREATE INDEX api_keys_org_idx ON api_keys (organization_id, created_at) WHERE organization_id IS NOT NULL;
