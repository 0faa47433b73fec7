-- JWT templates (docs/session-token-claims.md#jwt-templates), kept by the operator through the Backend API
-- (`@clerk/backend`'s `jwtTemplates`): tokens minted from one carry its rendered claims, signed with the
-- instance's key or with the template's own.
--
-- A template is found by its name when a token is asked for, so the name is unique. The custom signing
-- key is sealed with a key derived from the instance secret key (crypto/sealing.ts), bound to the
-- template's id: a copy of the database alone does not reveal it, and it is never answered back.
CREATE TABLE jwt_templates (
  id text PRIMARY KEY,
  name text NOT NULL UNIQUE,
  claims jsonb NOT NULL,
  lifetime integer NOT NULL CHECK (lifetime BETWEEN 30 AND 315360000),
  allowed_clock_skew integer NOT NULL CHECK (allowed_clock_skew BETWEEN 0 AND 300),
  -- RS256 with the instance's key, or the algorithm of the template's own key.
  signing_algorithm text NOT NULL,
  sealed_signing_key text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX jwt_templates_created_at_idx ON jwt_templates (created_at, id);
