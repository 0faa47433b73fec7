-- Passkeys (WebAuthn credentials): <UserProfile/> → Security → Passkeys registers them, <SignIn/> signs in
-- with them (the "Use passkey" button, the identifier field's autofill, or the first factor of an
-- identified sign-in).

-- A passkey is created unverified by POST /me/passkeys, with the registration challenge it was offered
-- (its SHA-256 only, cleared when the browser's credential is checked); the credential's id and public
-- key are written when that check passes. The counter is the authenticator's signature counter as last
-- seen: an assertion that does not move it past this is a cloned authenticator's and is refused.
CREATE TABLE passkeys (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text,
  credential_id text,
  public_key bytea,
  counter bigint NOT NULL DEFAULT 0,
  transports jsonb NOT NULL DEFAULT '[]',
  backed_up boolean NOT NULL DEFAULT false,
  challenge_hash text,
  challenge_expire_at timestamptz,
  verified_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- A credential belongs to one passkey of one user (unverified rows have none yet).
CREATE UNIQUE INDEX passkeys_credential_id_key ON passkeys (credential_id);
CREATE INDEX passkeys_user_idx ON passkeys (user_id, created_at);

-- The authentication challenge offered to the browser (`first_factor_verification.nonce`) by a sign-in
-- (`sign_in:<id>`) or a session re-verification (`session_verification:<id>`), by its SHA-256; one per
-- subject, deleted by the attempt that uses it, right or wrong.
CREATE TABLE passkey_challenges (
  subject text PRIMARY KEY,
  challenge_hash text NOT NULL,
  expire_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX passkey_challenges_expire_idx ON passkey_challenges (expire_at);
