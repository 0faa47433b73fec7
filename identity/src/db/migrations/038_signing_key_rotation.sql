-- Session-token signing keys rotate (`npm run identity -- keys rotate`, docs/operations.md): a new key is
-- published in the JWKS at once and signs from `signs_from`; the key it replaces stays published until
-- `retire_at`, when every token it signed has expired, and is deleted after.
ALTER TABLE signing_keys ADD COLUMN signs_from timestamptz;
UPDATE signing_keys SET signs_from = created_at;
ALTER TABLE signing_keys ALTER COLUMN signs_from SET NOT NULL;
ALTER TABLE signing_keys ALTER COLUMN signs_from SET DEFAULT now();
ALTER TABLE signing_keys ADD COLUMN retire_at timestamptz;
