-- Instance settings (session token claims now; sign-in options, social providers … later): one document
-- per instance, in the database so every server process sees the same. The settings file, the CLI and
-- tests all write it through store/instance-settings.ts, which validates it first. (The key/value table
-- `instance_settings` of 001 keeps what the instance generates for itself: the secret key's hash, the
-- code pepper; nothing an operator declares.)
--
-- `version` grows by one with each change that alters the document: processes compare it with the
-- version they hold (a primary-key read every few seconds) and reload on a difference, and anything
-- cached from the settings (the environment clerk-js reads) is rebuilt when it moves.
CREATE TABLE instance_settings_document (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  settings jsonb NOT NULL,
  version integer NOT NULL,
  updated_at timestamptz NOT NULL
);
