-- The waitlist and invitations to the application (docs/sign-up-modes.md).
--
-- An invitation to the application (Clerk's `inv_`, no organisation): its ticket opens sign-up in the
-- restricted and waitlist modes. Only the ticket's hash is kept, as for organisation invitations.
CREATE TABLE instance_invitations (
  id text PRIMARY KEY,
  email_address text NOT NULL,
  -- pending | accepted | revoked (expired is read from expires_at)
  status text NOT NULL,
  ticket_hash text NOT NULL UNIQUE,
  public_metadata jsonb NOT NULL DEFAULT '{}',
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX instance_invitations_email_idx ON instance_invitations (lower(email_address));

-- One entry per address (it joins once): pending → invited → completed when that person signs up, or
-- rejected by the operator.
CREATE TABLE waitlist_entries (
  id text PRIMARY KEY,
  email_address text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'invited', 'completed', 'rejected')),
  invitation_id text REFERENCES instance_invitations(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX waitlist_entries_email_key ON waitlist_entries (lower(email_address));
CREATE INDEX waitlist_entries_created_at_idx ON waitlist_entries (created_at, id);
CREATE INDEX waitlist_entries_invitation_idx ON waitlist_entries (invitation_id);

-- Legal consent was asked when the sign-up started (the instance setting then): `legal_accepted` stays
-- a missing field until it is given, even if the setting changes meanwhile.
ALTER TABLE sign_ups ADD COLUMN legal_consent_required boolean NOT NULL DEFAULT false;
