-- The token a client had before its last rotation (session fixation defence): a request still carrying it
-- (a planted copy, or a request that raced the rotation) is told the credential was replaced, instead of
-- being taken for a new browser.
ALTER TABLE clients ADD COLUMN previous_token_hash text;
CREATE INDEX clients_previous_token_hash ON clients (previous_token_hash) WHERE previous_token_hash IS NOT NULL;
