-- A sign-up whose address is at an enterprise connection's domain: the connection's IdP verifies it
-- (`missing_fields: ["enterprise_sso"]`), not a code or a password (docs/enterprise-sso.md).
ALTER TABLE sign_ups ADD COLUMN enterprise_connection_id text;
