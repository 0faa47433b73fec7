-- RFC 7592 client management (docs/oauth-provider.md): a dynamically registered application's registration
-- access token, kept only as its HMAC-SHA256 under the instance's code pepper (a copied table holds no usable
-- token). Null for an application the operator made (Backend API, console, settings): it cannot be managed
-- through `/oauth/register/<client_id>`. It goes with its row when the application is deleted.
ALTER TABLE oauth_applications ADD COLUMN registration_token_hash text;
