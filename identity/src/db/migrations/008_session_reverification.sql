-- Re-verification (<UserVerification/>): when each factor group was last proven in a session, and the
-- verification attempts that prove them again before a sensitive action.

-- Null while the session has not passed a second factor (signed in without one).
ALTER TABLE sessions ADD COLUMN second_factor_verified_at timestamptz;

-- Clerk's SessionVerification: `needs_first_factor` → (`needs_second_factor`) → `complete`.
CREATE TABLE session_verifications (
  id text PRIMARY KEY,
  session_id text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  level text NOT NULL,
  status text NOT NULL,
  first_factor_verification jsonb,
  second_factor_verification jsonb,
  expire_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX session_verifications_session_idx ON session_verifications (session_id);
