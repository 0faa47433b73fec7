-- What an OAuth application shows of itself (docs/oauth-provider.md): its home page and its logo, both
-- https URLs shown on the consent screen and answered as Clerk's `client_uri` and `client_image_url`; and
-- whether it registered itself (RFC 7591 dynamic client registration), Clerk's `dynamically_registered`.
ALTER TABLE oauth_applications
  ADD COLUMN client_uri text,
  ADD COLUMN logo_url text,
  ADD COLUMN dynamically_registered boolean NOT NULL DEFAULT false;
