-- Email links: sign-in and sign-up verified by opening a link from an email. The link carries
-- `<id>.<secret>`; only a keyed hash of the secret (instance pepper) is kept, compared in constant time.
-- Single use: `consumed_at` is set when the link verifies, expires, or a newer link for the same attempt
-- replaces it.
CREATE TABLE email_links (
  id text PRIMARY KEY,
  secret_hash text NOT NULL,
  -- What the link verifies: 'sign_in' (a sign-in's first factor) or 'sign_up' (a sign-up's email address).
  purpose text NOT NULL,
  attempt_id text NOT NULL,
  -- The browser that asked for the link: the attempt belongs to it, and it is the "same client".
  client_id text NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  email_address text NOT NULL,
  -- Where /v1/verify sends the browser, checked against the allowed origins when the link was asked for.
  redirect_url text NOT NULL,
  expire_at timestamptz NOT NULL,
  consumed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_links_attempt_idx ON email_links (attempt_id);

-- An operator's demand (Backend API) that the user set a new password: a correct password then leads
-- to `needs_new_password` instead of a session, until a new password is set.
ALTER TABLE users ADD COLUMN password_reset_required boolean NOT NULL DEFAULT false;
