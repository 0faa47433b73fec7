-- `updated_at` moves with every change, in the database rather than at each call site that remembers.
-- clerk-js keeps its copy of a user (session, client) until a fresher one arrives, and "fresher" means a
-- strictly larger `updated_at` in milliseconds (`utils/memoizeStateListenerCallback.ts`): a change that
-- leaves it alone (an address added and verified, a TOTP enrolled) stays invisible until a reload.
--
-- The application's clock still sets the value where it passes one (tests drive that clock); the
-- database only makes sure it is at least one millisecond past the previous value, so two changes in
-- the same millisecond still count as two. Function bodies keep their semicolons inside lines.

CREATE FUNCTION advance_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  IF NEW IS DISTINCT FROM OLD THEN
    NEW.updated_at := GREATEST(NEW.updated_at, date_trunc('milliseconds', OLD.updated_at) + interval '1 millisecond'); END IF; RETURN NEW; END
$$;

CREATE TRIGGER users_updated_at BEFORE UPDATE ON users
  FOR EACH ROW EXECUTE FUNCTION advance_updated_at();
CREATE TRIGGER organizations_updated_at BEFORE UPDATE ON organizations
  FOR EACH ROW EXECUTE FUNCTION advance_updated_at();
CREATE TRIGGER organization_memberships_updated_at BEFORE UPDATE ON organization_memberships
  FOR EACH ROW EXECUTE FUNCTION advance_updated_at();

-- What the user JSON embeds (addresses, phone numbers, second factors, image, memberships) lives in
-- tables of its own: a change there is a change to the user. A deleted row carries no time of the
-- change, so the database's clock stands in; the rule above keeps the result increasing either way.
CREATE FUNCTION touch_owning_user() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  UPDATE users SET updated_at = GREATEST(updated_at, statement_timestamp())
    WHERE id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END); RETURN NULL; END
$$;

CREATE TRIGGER email_addresses_touch_user AFTER INSERT OR UPDATE OR DELETE ON email_addresses
  FOR EACH ROW EXECUTE FUNCTION touch_owning_user();
CREATE TRIGGER phone_numbers_touch_user AFTER INSERT OR UPDATE OR DELETE ON phone_numbers
  FOR EACH ROW EXECUTE FUNCTION touch_owning_user();
CREATE TRIGGER totp_secrets_touch_user AFTER INSERT OR UPDATE OR DELETE ON totp_secrets
  FOR EACH ROW EXECUTE FUNCTION touch_owning_user();
CREATE TRIGGER backup_codes_touch_user AFTER INSERT OR UPDATE OR DELETE ON backup_codes
  FOR EACH ROW EXECUTE FUNCTION touch_owning_user();
CREATE TRIGGER user_images_touch_user AFTER INSERT OR UPDATE OR DELETE ON user_images
  FOR EACH ROW EXECUTE FUNCTION touch_owning_user();
CREATE TRIGGER organization_memberships_touch_user AFTER INSERT OR UPDATE OR DELETE ON organization_memberships
  FOR EACH ROW EXECUTE FUNCTION touch_owning_user();

-- `session.startVerification` asks the session to prove a factor again: until a verification completes,
-- every action clerk-js gates with `useReverification` is refused, however recent the sign-in (Clerk's
-- integration tests open a verification right after signing in and expect the next gated action to prompt).
ALTER TABLE sessions ADD COLUMN reverification_requested boolean NOT NULL DEFAULT false;
