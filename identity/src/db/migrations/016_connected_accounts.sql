-- Connected accounts (<UserProfile/> → Connected accounts): a signed-in user connects a provider's account,
-- reauthorizes it with more scopes, or removes it; the provider's tokens are kept for the Backend API.

-- A connection in flight is an external account not yet verified: created by POST /me/external_accounts
-- (clerk-js needs its id and an `unverified` verification at once), completed by the callback. Until then
-- it names no provider user. A failed one keeps its error for <UserProfile/> to show.
ALTER TABLE external_accounts ALTER COLUMN provider_user_id DROP NOT NULL;
ALTER TABLE external_accounts
  ADD COLUMN verification_status text NOT NULL DEFAULT 'verified'
    CHECK (verification_status IN ('verified', 'unverified'));
ALTER TABLE external_accounts ADD COLUMN verification_error jsonb;
ALTER TABLE external_accounts ADD COLUMN verification_expire_at timestamptz;

-- The provider's tokens, each sealed (AES-256-GCM, crypto/sealing.ts) under a key derived from the instance
-- secret key and bound to the row and the token's kind: a copy of the database reveals none of them.
ALTER TABLE external_accounts ADD COLUMN access_token_sealed text;
ALTER TABLE external_accounts ADD COLUMN refresh_token_sealed text;
ALTER TABLE external_accounts ADD COLUMN token_expires_at timestamptz;

-- A redirect that connects an account is bound, besides the browser's client, to the session that asked
-- (the account's user), and remembers the scopes it asked for.
ALTER TABLE oauth_states DROP CONSTRAINT oauth_states_attempt_kind_check;
ALTER TABLE oauth_states
  ADD CONSTRAINT oauth_states_attempt_kind_check
    CHECK (attempt_kind IN ('sign_in', 'sign_up', 'connect_account'));
ALTER TABLE oauth_states ADD COLUMN session_id text;
ALTER TABLE oauth_states ADD COLUMN scopes text;
