-- Phone numbers: an optional sign-in identifier (codes by SMS) and a second factor.
-- Stored in E.164. Like an email address, a number is owned once verified: an unverified copy on another
-- account blocks no one and goes when the owner verifies it.
CREATE TABLE phone_numbers (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  phone_number text NOT NULL,
  verified_at timestamptz,
  -- The pending code verification of a number added from the profile (Clerk's VerificationJSON).
  verification jsonb,
  -- Kept for two-step verification only: neither an identifier nor a first factor.
  reserved_for_second_factor boolean NOT NULL DEFAULT false,
  default_second_factor boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX phone_numbers_verified_key ON phone_numbers (phone_number) WHERE verified_at IS NOT NULL;
CREATE UNIQUE INDEX phone_numbers_user_number_key ON phone_numbers (user_id, phone_number);
CREATE INDEX phone_numbers_number_idx ON phone_numbers (phone_number);

ALTER TABLE users ADD COLUMN primary_phone_number_id text;

-- A sign-up may carry a phone number, verified by an SMS code before the account exists.
ALTER TABLE sign_ups ADD COLUMN phone_number text;
ALTER TABLE sign_ups ADD COLUMN phone_verification jsonb;
