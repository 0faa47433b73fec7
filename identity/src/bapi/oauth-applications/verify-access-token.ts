import { createHash } from 'node:crypto';
import { errors } from '../../errors.ts';
import { OAUTH_ACCESS_TOKEN_PREFIX } from '../../oauth-provider/oidc-provider-instance.ts';
import { mayUseOAuthTokens } from '../../oauth-provider/oidc-account.ts';
import { findOAuthApplicationByClientId } from '../../store/oauth-applications.ts';
import { findUserById } from '../../store/users.ts';
import { hit, waitIfReached, type RateLimitRule } from '../../store/rate-limits.ts';
import { DEFAULT_OAUTH_PROVIDER_SETTINGS } from '../../oauth-provider/oauth-provider-settings.ts';
import { jsonInput } from '../json-input.ts';
import type { BapiRoute } from '../route.ts';

/** The window of the failed-verification limit (the instance settings' `failedTokenVerificationsPerAddress`). */
export const TOKEN_FAILURE_WINDOW_SECONDS = 600;

/**
 * POST /oauth_applications/access_tokens/verify (no `/v1`, as @clerk/backend 2.10.1's
 * `idPOAuthAccessToken.verifyAccessToken` calls it, and `authenticateRequest({acceptsToken: 'oauth_token'})`
 * through it): an access token this instance issued, still valid, of an application that still exists, for
 * a user who is neither deleted, banned nor locked, answers `clerk_idp_oauth_access_token`; anything else is 404,
 * whatever the reason (`token-invalid` in @clerk/backend), as hosted Clerk answers an unknown token.
 */
export const verifyOAuthAccessTokenRoute: BapiRoute = {
  method: 'POST',
  path: '/oauth_applications/access_tokens/verify',
  // Reads or mints; changes nothing the audit log records (docs/audit-log.md).
  audit: false,
  auth: 'secret_key',
  permission: 'instance_secret_key',
  input: { body: jsonInput({ access_token: 'string' }) },
  async handler(req, deps) {
    // Failures are limited per caller address: checked before anything is read, counted when the answer
    // is 404 (a good token costs no write). Requests in flight together may pass the limit by their number.
    const settings = deps.settings.settings.oauthProvider ?? DEFAULT_OAUTH_PROVIDER_SETTINGS;
    const rule: RateLimitRule = {
      key: `oauth_token_verify_failed:ip:${req.raw.ip}`,
      limit: settings.failedTokenVerificationsPerAddress,
      windowSeconds: TOKEN_FAILURE_WINDOW_SECONDS,
    };
    const wait = await waitIfReached(deps.db, rule, deps.clock());
    if (wait > 0) throw errors.tooManyRequests(wait);
    const notFound = async () => {
      await hit(deps.db, rule, deps.clock());
      return errors.notFound('oauth_access_token');
    };
    const value = req.fields.string('access_token');
    if (!value?.startsWith(OAUTH_ACCESS_TOKEN_PREFIX) || value.length > 200) throw await notFound();
    const provider = await deps.oauthProvider();
    const token = await provider.AccessToken.find(value);
    if (!token || !token.accountId || !token.clientId) throw await notFound();
    const [application, user] = await Promise.all([
      findOAuthApplicationByClientId(deps.db, token.clientId),
      findUserById(deps.db, token.accountId),
    ]);
    const now = deps.clock();
    if (!application || !user || !mayUseOAuthTokens(user, now)) throw await notFound();
    const issuedAt = (token.iat ?? 0) * 1000;
    return {
      object: 'clerk_idp_oauth_access_token',
      // Names the token without being it: a hash of the value.
      id: `oat_${createHash('sha256').update(value).digest('hex').slice(0, 32)}`,
      client_id: token.clientId,
      type: 'oauth_token',
      subject: token.accountId,
      scopes: (token.scope ?? '').split(' ').filter(Boolean),
      revoked: false,
      revocation_reason: null,
      expired: false,
      expiration: (token.exp ?? 0) * 1000,
      created_at: issuedAt,
      updated_at: issuedAt,
    };
  },
};
