import { errors } from '../../errors.ts';
import { isExactOriginRedirect } from '../../http/redirects.ts';
import { allSatelliteOrigins } from '../../domains/domains.ts';
import { handshakeDirectives, issueHandshakeNonce, signHandshakeToken } from '../../sessions/handshake.ts';
import type { FapiRoute } from '../context.ts';
import { booleanField, field } from '../form.ts';
import { formInput } from '../form-input.ts';

const HANDSHAKE_PARAMS = ['__clerk_handshake', '__clerk_handshake_nonce'] as const;

/**
 * GET /client/handshake — where `@clerk/backend`'s `authenticateRequest` sends a browser whose session
 * cookie it cannot trust (expired, older than `__client_uat`, missing). A browser navigation: it reads the
 * browser's client (its `__client` cookie, or with development keys its dev-browser token) and answers a
 * 307 back to `redirect_url` carrying the cookie directives for the application's server, either signed
 * (`__clerk_handshake`, the default `format=token`) or as a single-use nonce the server redeems through
 * the Backend API (`__clerk_handshake_nonce`, `format=nonce`, what `@clerk/backend` 2.10.1 asks for).
 * `redirect_url` must be exactly on one of the instance's origins: the answer carries a session token.
 */
export const handshakeRoute: FapiRoute = {
  method: 'GET',
  path: '/client/handshake',
  auth: 'client',
  permission: null,
  input: {
    query: formInput({
      redirect_url: 'url',
      format: 'enum',
      suffixed_cookies: 'bool',
      __clerk_hs_reason: 'text',
      __clerk_db_jwt: 'token',
    }),
  },
  rateLimits: (req) => [{ key: `handshake:ip:${req.ip}`, limit: 60, windowSeconds: 60 }],
  async handler(ctx) {
    const redirectUrl = field(ctx.query, 'redirect_url');
    if (redirectUrl === undefined) throw errors.paramMissing('redirect_url');
    if (
      !isExactOriginRedirect(redirectUrl, ctx.deps.config, allSatelliteOrigins(ctx.deps.settings.settings))
    ) {
      throw errors.paramValueInvalid(
        'redirect_url',
        'redirect_url must point to an allowed origin of this application.',
      );
    }
    const format = field(ctx.query, 'format') ?? 'token';
    if (format !== 'token' && format !== 'nonce') {
      throw errors.paramValueInvalid('format', 'format must be token or nonce.');
    }
    const target = new URL(redirectUrl);
    const directives = await handshakeDirectives(ctx.deps, ctx.tx, {
      client: ctx.client,
      suffixed: booleanField(ctx.query, 'suffixed_cookies') ?? false,
      secure: target.protocol === 'https:',
      azp: target.origin,
      devBrowserToken: ctx.devBrowserToken,
      request: { ip: ctx.ip, userAgent: ctx.userAgent },
      now: ctx.now,
    });
    // Whatever the caller put there is not ours to pass on.
    for (const name of HANDSHAKE_PARAMS) target.searchParams.delete(name);
    if (format === 'nonce') {
      target.searchParams.set(
        '__clerk_handshake_nonce',
        await issueHandshakeNonce(ctx.tx, directives, ctx.now),
      );
    } else {
      target.searchParams.set('__clerk_handshake', await signHandshakeToken(ctx.deps, directives, ctx.now));
    }
    return { redirect: target.href, status: 307 };
  },
};
