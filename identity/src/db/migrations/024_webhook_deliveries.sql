-- Webhooks, part two (docs/webhooks.md): what changed in a transaction, the deliveries of each event to
-- each endpoint, and every attempt.

-- What a transaction changed, marked by triggers as it happens and turned into events (webhook_events,
-- with the objects as the Backend API serialises them) by the same transaction right before it commits
-- (webhooks/emit.ts). Triggers rather than calls in every route: a user changes through dozens of paths
-- (FAPI, BAPI, the CLI, the tables around it), and a path added later cannot forget its event. `old`
-- keeps what a delete leaves nothing else of.
-- `txid` is the writing transaction's: each takes its own marks only, so two never wait on each other's;
-- marks a statement outside any transaction leaves are swept by the delivery worker.
CREATE TABLE webhook_changes (
  seq bigserial PRIMARY KEY,
  txid bigint NOT NULL DEFAULT txid_current(),
  kind text NOT NULL,
  object_id text NOT NULL,
  old jsonb
);
CREATE INDEX webhook_changes_txid_idx ON webhook_changes (txid);

CREATE FUNCTION webhook_mark(kind text, object_id text, old jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO webhook_changes (kind, object_id, old) VALUES (kind, object_id, old);
$$;

-- Users: created, deleted, and updated when anything Clerk's UserJSON shows changes. The counters that
-- move on every sign-in (activity, failed attempts) are no update of the user.
CREATE FUNCTION webhook_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM webhook_mark('user.created', NEW.id, NULL);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM webhook_mark('user.deleted', OLD.id, NULL);
  ELSIF (to_jsonb(OLD) - ARRAY['last_active_at', 'last_sign_in_at', 'failed_verification_attempts',
           'last_failed_verification_at', 'updated_at'])
        IS DISTINCT FROM (to_jsonb(NEW) - ARRAY['last_active_at', 'last_sign_in_at',
           'failed_verification_attempts', 'last_failed_verification_at', 'updated_at']) THEN
    PERFORM webhook_mark('user.updated', NEW.id, NULL);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER webhook_users AFTER INSERT OR UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION webhook_users_changed();

-- The tables a UserJSON is made of besides `users`: a change there is a `user.updated`. Columns that move
-- without the user seeing anything (tokens refreshed, a passkey's counter) are left out.
CREATE FUNCTION webhook_user_part_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ignored text[] := ARRAY['updated_at', 'last_used_at', 'counter', 'access_token_sealed',
    'refresh_token_sealed', 'token_expires_at'];
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM webhook_mark('user.updated', NEW.user_id, NULL);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM webhook_mark('user.updated', OLD.user_id, NULL);
  ELSIF (to_jsonb(OLD) - ignored) IS DISTINCT FROM (to_jsonb(NEW) - ignored) THEN
    PERFORM webhook_mark('user.updated', NEW.user_id, NULL);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER webhook_email_addresses AFTER INSERT OR UPDATE OR DELETE ON email_addresses
  FOR EACH ROW EXECUTE FUNCTION webhook_user_part_changed();
CREATE TRIGGER webhook_phone_numbers AFTER INSERT OR UPDATE OR DELETE ON phone_numbers
  FOR EACH ROW EXECUTE FUNCTION webhook_user_part_changed();
CREATE TRIGGER webhook_external_accounts AFTER INSERT OR UPDATE OR DELETE ON external_accounts
  FOR EACH ROW EXECUTE FUNCTION webhook_user_part_changed();
CREATE TRIGGER webhook_enterprise_accounts AFTER INSERT OR DELETE ON enterprise_accounts
  FOR EACH ROW EXECUTE FUNCTION webhook_user_part_changed();
CREATE TRIGGER webhook_web3_wallets AFTER INSERT OR UPDATE OR DELETE ON web3_wallets
  FOR EACH ROW EXECUTE FUNCTION webhook_user_part_changed();
CREATE TRIGGER webhook_passkeys AFTER INSERT OR UPDATE OR DELETE ON passkeys
  FOR EACH ROW EXECUTE FUNCTION webhook_user_part_changed();
CREATE TRIGGER webhook_totp_secrets AFTER INSERT OR UPDATE OR DELETE ON totp_secrets
  FOR EACH ROW EXECUTE FUNCTION webhook_user_part_changed();

-- Sessions: created, and the three ends Clerk reports (ended: signed out; removed: taken off the client;
-- revoked: by an administrator or a password reset). Expiry and replacement have no event in Clerk.
CREATE FUNCTION webhook_sessions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM webhook_mark('session.created', NEW.id, NULL);
  ELSIF NEW.status IS DISTINCT FROM OLD.status AND NEW.status IN ('ended', 'removed', 'revoked') THEN
    PERFORM webhook_mark('session.' || NEW.status, NEW.id, NULL);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER webhook_sessions AFTER INSERT OR UPDATE OF status ON sessions
  FOR EACH ROW EXECUTE FUNCTION webhook_sessions_changed();

CREATE FUNCTION webhook_organizations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM webhook_mark('organization.created', NEW.id, NULL);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM webhook_mark('organization.deleted', OLD.id, jsonb_build_object('slug', OLD.slug));
  ELSIF (OLD.name, OLD.slug, OLD.image_type, OLD.public_metadata, OLD.private_metadata,
         OLD.max_allowed_memberships, OLD.admin_delete_enabled, OLD.updated_at)
        IS DISTINCT FROM (NEW.name, NEW.slug, NEW.image_type, NEW.public_metadata, NEW.private_metadata,
         NEW.max_allowed_memberships, NEW.admin_delete_enabled, NEW.updated_at) THEN
    PERFORM webhook_mark('organization.updated', NEW.id, NULL);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER webhook_organizations AFTER INSERT OR UPDATE OR DELETE ON organizations
  FOR EACH ROW EXECUTE FUNCTION webhook_organizations_changed();

CREATE FUNCTION webhook_memberships_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM webhook_mark('organizationMembership.created', NEW.id, NULL);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM webhook_mark('organizationMembership.deleted', OLD.id, to_jsonb(OLD));
  ELSIF (to_jsonb(OLD) - 'updated_at') IS DISTINCT FROM (to_jsonb(NEW) - 'updated_at') THEN
    PERFORM webhook_mark('organizationMembership.updated', NEW.id, NULL);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER webhook_memberships AFTER INSERT OR UPDATE OR DELETE ON organization_memberships
  FOR EACH ROW EXECUTE FUNCTION webhook_memberships_changed();

CREATE FUNCTION webhook_invitations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM webhook_mark('organizationInvitation.created', NEW.id, NULL);
  ELSIF NEW.status IS DISTINCT FROM OLD.status AND NEW.status IN ('accepted', 'revoked') THEN
    PERFORM webhook_mark('organizationInvitation.' || NEW.status, NEW.id, NULL);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER webhook_invitations AFTER INSERT OR UPDATE OF status ON organization_invitations
  FOR EACH ROW EXECUTE FUNCTION webhook_invitations_changed();

-- Fan-out: an event is given a delivery per matching endpoint once, by whichever worker claims it.
ALTER TABLE webhook_events ADD COLUMN fanned_out_at timestamptz;
CREATE INDEX webhook_events_to_fan_out_idx ON webhook_events (created_at) WHERE fanned_out_at IS NULL;

-- One event to one endpoint (a replay adds another). `svix-id` is the event id, the same on every
-- attempt and replay, so a receiver can drop what it has already seen. A worker claims a due row with
-- FOR UPDATE SKIP LOCKED and holds it by `locked_until` (a lease longer than its request's timeout) and
-- `lock_token`; a crashed worker's lease runs out and another takes the row again.
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  event_id text NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
  endpoint_id text NOT NULL,
  -- pending: to be tried at next_attempt_at; delivered: a 2xx answer; failed: the last attempt failed.
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  locked_until timestamptz,
  lock_token text,
  last_status_code integer,
  last_error text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);
CREATE INDEX webhook_deliveries_recent_idx ON webhook_deliveries (created_at DESC);

-- Every attempt: when, the answer's status (null when none came), how long, and the start of the answer.
CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  status_code integer,
  latency_ms integer NOT NULL,
  response_excerpt text,
  error text
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempt);
