CREATE TABLE organizations (
  id text PRIMARY KEY,
  name text NOT NULL,
  slug text NOT NULL,
  image_data bytea,
  image_type text,
  public_metadata jsonb NOT NULL DEFAULT '{}',
  private_metadata jsonb NOT NULL DEFAULT '{}',
  max_allowed_memberships integer NOT NULL DEFAULT 0,
  admin_delete_enabled boolean NOT NULL DEFAULT true,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX organizations_slug_key ON organizations (lower(slug));

CREATE TABLE organization_memberships (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role text NOT NULL,
  public_metadata jsonb NOT NULL DEFAULT '{}',
  private_metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, user_id)
);
CREATE INDEX organization_memberships_user_idx ON organization_memberships (user_id);

-- Invitations carry a one-time ticket for the emailed link; only its SHA-256 is kept.
CREATE TABLE organization_invitations (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email_address text NOT NULL,
  role text NOT NULL,
  status text NOT NULL,
  ticket_hash text NOT NULL UNIQUE,
  inviter_user_id text,
  public_metadata jsonb NOT NULL DEFAULT '{}',
  private_metadata jsonb NOT NULL DEFAULT '{}',
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX organization_invitations_pending_key
  ON organization_invitations (organization_id, lower(email_address)) WHERE status = 'pending';
CREATE INDEX organization_invitations_email_idx ON organization_invitations (lower(email_address));
