-- Lockout per identifier: progressive delays between failed attempts, and the browsers a lock raised by
-- others does not shut out.

-- When the last failed password or code was counted: the next attempt waits a delay that grows with
-- `failed_verification_attempts` (abuse/attempt-delay.ts).
ALTER TABLE users ADD COLUMN last_failed_verification_at timestamptz;
-- The lock was reached by failed attempts (anyone's), not set by an operator: only such a lock lets a
-- known browser through.
ALTER TABLE users ADD COLUMN locked_by_failures boolean NOT NULL DEFAULT false;

-- A browser (client row; its id survives token rotation) where the user has opened a session before, and
-- the wrong passwords or codes sent from it since its last success.
CREATE TABLE known_browsers (
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id text NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  failed_attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, client_id)
);
CREATE INDEX known_browsers_client_idx ON known_browsers (client_id);

-- Browsers where the user already signed in (an impersonation is not the user).
INSERT INTO known_browsers (user_id, client_id, created_at, updated_at)
SELECT user_id, client_id, min(created_at), min(created_at) FROM sessions WHERE actor IS NULL
GROUP BY user_id, client_id;
