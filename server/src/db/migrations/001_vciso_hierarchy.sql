-- The vCISO hierarchy (spec §3), relationally. One row per child: the primary key gives a child one parent
-- at most. Organisation ids come from the identity provider (embedded or hosted Clerk), which may live in
-- another database, so they are not foreign keys.
CREATE TABLE vciso_links (
  child_id text PRIMARY KEY,
  parent_id text NOT NULL,
  -- The order children were added in, which their parent's list keeps.
  position bigserial NOT NULL,
  linked_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT vciso_links_not_self CHECK (child_id <> parent_id)
);
CREATE INDEX vciso_links_by_parent ON vciso_links (parent_id, position);

-- A second guard under the routes' own check (which runs under the hierarchy lock): a row that would close
-- a cycle is refused by the database itself.
CREATE FUNCTION vciso_links_refuse_cycle() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  closes boolean;
BEGIN
  WITH RECURSIVE up(id, depth) AS (
    SELECT NEW.parent_id, 1
    UNION ALL
    SELECT l.parent_id, up.depth + 1 FROM vciso_links l JOIN up ON l.child_id = up.id WHERE up.depth < 1000
  )
  SELECT EXISTS (SELECT 1 FROM up WHERE id = NEW.child_id) INTO closes;
  IF closes THEN
    RAISE EXCEPTION 'vciso_links: % under % would close a cycle', NEW.child_id, NEW.parent_id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER vciso_links_no_cycle BEFORE INSERT OR UPDATE ON vciso_links
  FOR EACH ROW EXECUTE FUNCTION vciso_links_refuse_cycle();

-- Organisations whose public metadata must be written again from the relational state (the projection).
-- Written in the same transaction as the change; one row per organisation, since a projection is always
-- computed afresh from the current state. `version` grows with every new request, so a worker that wrote
-- an older state does not delete the row of a newer one.
CREATE TABLE metadata_outbox (
  organization_id text PRIMARY KEY,
  version bigint NOT NULL DEFAULT 1,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- A worker's claim, so two instances never write the same organisation at once.
  lease_until timestamptz,
  lease_token text,
  last_error text,
  enqueued_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX metadata_outbox_due ON metadata_outbox (next_attempt_at);

-- Facts about this database, e.g. when the hierarchy was adopted from organisation metadata.
CREATE TABLE product_state (
  key text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
