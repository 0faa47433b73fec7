-- The audit log (docs/audit-log.md): who did what to which object, when, from where. Append-only: rows
-- are inserted, never changed, and deleted only by the retention purge (which alone sets
-- `identity.audit_purge` for its statement). No API edits or deletes them.
--
-- `actor_kind`: operator | secret_key | api_key | cli | user | system. `actor_id` names the actor without
-- being a credential: for the secret key, a fingerprint (`sk_fp_` + 16 hex digits of its SHA-256).
-- `summary` holds field names and non-secret values only, never a password, code, token or secret.
CREATE TABLE audit_events (
  id text PRIMARY KEY,
  -- The order of insertion: events of one instant (one transaction) keep the order they happened in.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  actor_kind text NOT NULL CHECK (actor_kind IN ('operator', 'secret_key', 'api_key', 'cli', 'user', 'system')),
  actor_id text,
  action text NOT NULL,
  object_type text,
  object_id text,
  summary jsonb NOT NULL DEFAULT '{}',
  ip_address text,
  user_agent text,
  request_id text,
  created_at timestamptz NOT NULL
);
CREATE INDEX audit_events_created_idx ON audit_events (created_at, seq);
CREATE INDEX audit_events_object_idx ON audit_events (object_type, object_id);
CREATE INDEX audit_events_actor_idx ON audit_events (actor_kind, actor_id);

CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('identity.audit_purge', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
CREATE FUNCTION audit_events_no_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: TRUNCATE refused' USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_no_truncate();

-- Security events, recorded by triggers in the transaction of the change, whichever path made it. Who and
-- from where come from `identity.audit_context` (a JSON object the application sets for the transaction:
-- kind, id, ip, ua, rid); without it, the actor is the system.
CREATE FUNCTION audit_record(p_action text, p_object_type text, p_object_id text, p_summary jsonb,
                             p_user_id text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  ctx jsonb := NULLIF(current_setting('identity.audit_context', true), '')::jsonb;
  kind text := COALESCE(ctx->>'kind', 'system');
BEGIN
  INSERT INTO audit_events (id, actor_kind, actor_id, action, object_type, object_id, summary,
                            ip_address, user_agent, request_id, created_at)
  VALUES ('aud_' || replace(gen_random_uuid()::text, '-', ''), kind,
          CASE WHEN kind = 'user' THEN COALESCE(ctx->>'id', p_user_id) ELSE ctx->>'id' END,
          p_action, p_object_type, p_object_id, COALESCE(p_summary, '{}'),
          ctx->>'ip', ctx->>'ua', ctx->>'rid', COALESCE((ctx->>'at')::timestamptz, now()));
END;
$$;

CREATE FUNCTION audit_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.last_sign_in_at IS DISTINCT FROM OLD.last_sign_in_at AND NEW.last_sign_in_at IS NOT NULL THEN
    PERFORM audit_record('sign_in.succeeded', 'user', NEW.id, '{}', NEW.id);
  END IF;
  IF NEW.failed_verification_attempts > OLD.failed_verification_attempts THEN
    PERFORM audit_record('sign_in.failed', 'user', NEW.id,
      jsonb_build_object('failed_verification_attempts', NEW.failed_verification_attempts), NEW.id);
    IF NEW.locked_until IS NOT NULL AND NEW.locked_until IS DISTINCT FROM OLD.locked_until THEN
      PERFORM audit_record('user.locked_out', 'user', NEW.id,
        jsonb_build_object('locked_until', NEW.locked_until), NEW.id);
    END IF;
  END IF;
  IF NEW.password_hash IS DISTINCT FROM OLD.password_hash THEN
    PERFORM audit_record(CASE WHEN NEW.password_hash IS NULL THEN 'password.removed'
                              WHEN OLD.password_hash IS NULL THEN 'password.set'
                              ELSE 'password.changed' END, 'user', NEW.id, '{}', NEW.id);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER audit_users AFTER UPDATE ON users
  FOR EACH ROW EXECUTE FUNCTION audit_users_changed();

CREATE FUNCTION audit_totp_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.verified_at IS NULL AND NEW.verified_at IS NOT NULL THEN
    PERFORM audit_record('second_factor.added', 'user', NEW.user_id, '{"type":"totp"}', NEW.user_id);
  ELSIF TG_OP = 'INSERT' AND NEW.verified_at IS NOT NULL THEN
    PERFORM audit_record('second_factor.added', 'user', NEW.user_id, '{"type":"totp"}', NEW.user_id);
  ELSIF TG_OP = 'DELETE' AND OLD.verified_at IS NOT NULL THEN
    PERFORM audit_record('second_factor.removed', 'user', OLD.user_id, '{"type":"totp"}', OLD.user_id);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER audit_totp_secrets AFTER INSERT OR UPDATE OR DELETE ON totp_secrets
  FOR EACH ROW EXECUTE FUNCTION audit_totp_changed();

CREATE FUNCTION audit_phone_second_factor_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' AND NEW.reserved_for_second_factor
     AND (TG_OP = 'INSERT' OR NOT OLD.reserved_for_second_factor) THEN
    PERFORM audit_record('second_factor.added', 'user', NEW.user_id,
      jsonb_build_object('type', 'phone_code', 'phone_number_id', NEW.id), NEW.user_id);
  ELSIF TG_OP <> 'INSERT' AND OLD.reserved_for_second_factor
     AND (TG_OP = 'DELETE' OR NOT NEW.reserved_for_second_factor) THEN
    PERFORM audit_record('second_factor.removed', 'user', OLD.user_id,
      jsonb_build_object('type', 'phone_code', 'phone_number_id', OLD.id), OLD.user_id);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER audit_phone_numbers AFTER INSERT OR UPDATE OF reserved_for_second_factor OR DELETE ON phone_numbers
  FOR EACH ROW EXECUTE FUNCTION audit_phone_second_factor_changed();

CREATE FUNCTION audit_impersonation_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM audit_record('impersonation.started', 'session', NEW.id,
      jsonb_build_object('user_id', NEW.user_id, 'actor_sub', NEW.actor->>'sub'), NEW.user_id);
  ELSIF NEW.status IS DISTINCT FROM OLD.status AND NEW.status NOT IN ('active', 'pending') THEN
    PERFORM audit_record('impersonation.ended', 'session', NEW.id,
      jsonb_build_object('user_id', NEW.user_id, 'actor_sub', NEW.actor->>'sub', 'status', NEW.status),
      NEW.user_id);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER audit_impersonation AFTER INSERT OR UPDATE OF status ON sessions
  FOR EACH ROW WHEN (NEW.actor IS NOT NULL) EXECUTE FUNCTION audit_impersonation_changed();

CREATE FUNCTION audit_api_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM audit_record('api_key.created', 'api_key', NEW.id,
      jsonb_build_object('name', NEW.name, 'subject', COALESCE(NEW.user_id, NEW.organization_id)), NEW.user_id);
  ELSIF OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL THEN
    PERFORM audit_record('api_key.revoked', 'api_key', NEW.id,
      jsonb_build_object('name', NEW.name, 'subject', COALESCE(NEW.user_id, NEW.organization_id)), NEW.user_id);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER audit_api_keys AFTER INSERT OR UPDATE OF revoked_at ON api_keys
  FOR EACH ROW EXECUTE FUNCTION audit_api_keys_changed();
