-- The Backend API's `signUps.update` (docs/backend-api.md): the operator may give a sign-up under way the
-- id it has in its own systems (copied to the user when the sign-up completes) and mark it as a custom
-- action, as Clerk's SignUpAttempt carries them.
ALTER TABLE sign_ups ADD COLUMN external_id text;
ALTER TABLE sign_ups ADD COLUMN custom_action boolean NOT NULL DEFAULT false;
