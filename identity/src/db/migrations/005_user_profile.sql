-- The user profile (<UserProfile/>): usernames, more email addresses, a profile image, active devices.

-- Usernames are stored lowercased and unique whatever their case; a sign-up may carry one.
CREATE UNIQUE INDEX users_username_lower_key ON users (lower(username));
ALTER TABLE sign_ups ADD COLUMN username text;

-- An address is owned once it is verified: an unverified copy on another account (someone typing an
-- address that is not theirs) must not keep its owner from signing up or adding it.
DROP INDEX email_addresses_address_key;
CREATE UNIQUE INDEX email_addresses_verified_key ON email_addresses (lower(email_address))
  WHERE verified_at IS NOT NULL;
CREATE UNIQUE INDEX email_addresses_user_address_key ON email_addresses (user_id, lower(email_address));
CREATE INDEX email_addresses_address_idx ON email_addresses (lower(email_address));
-- The pending code verification of an address added from the profile (Clerk's VerificationJSON).
ALTER TABLE email_addresses ADD COLUMN verification jsonb;

-- The profile image: its bytes apart, so loading users never reads them; a new id per upload
-- versions the image URL.
ALTER TABLE users ADD COLUMN image_id text;
CREATE TABLE user_images (
  user_id text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  id text NOT NULL,
  data bytea NOT NULL,
  type text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Where a session is used from (Security → Active devices): parsed from the User-Agent and the client
-- IP when it opens and whenever it is touched. City and country stay empty: no geolocation database.
CREATE TABLE session_activities (
  session_id text PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
  browser_name text,
  browser_version text,
  os_name text,
  device_type text,
  is_mobile boolean NOT NULL DEFAULT false,
  ip_address text,
  city text,
  country text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
