import { errors } from '../../errors.ts';
import { isExactOriginRedirect } from '../../http/redirects.ts';
import { allSatelliteOrigins } from '../../domains/domains.ts';
import {
  activateRequestedOrganization,
  handshakeDirectives,
  issueHandshakeNonce,
  signHandshakeToken,
} from '../../sessions/handshake.ts';
import type { FapiRoute } from '../context.ts';
import { satelliteOfOrigin } from '../../domains/domains.ts';
import { primarySyncTarget } from '../../domains/satellite-sync.ts';
import { hasSignedInSession } from '../../store/sessions.ts';
import { PRIMARY_STEP_PARAM } from './satellite-sync.ts';
import { booleanField, field, has } from '../form.ts';
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
  devBrowserTokenInUrlOverDeadCookie: true,
  devBrowserTokenInUrlOverSignedOutCookie: (req) => syncedBackFromPrimary(req.query.redirect_url),
  input: {
    query: formInput({
      redirect_url: 'url',
      format: 'enum',
      suffixed_cookies: 'bool',
      __clerk_hs_reason: 'text',
      __clerk_db_jwt: 'token',
      organization_id: 'text',
      [PRIMARY_STEP_PARAM]: 'bool',
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
    const asked = field(ctx.query, 'format') ?? 'token';
    if (asked !== 'token' && asked !== 'nonce') {
      throw errors.paramValueInvalid('format', 'format must be token or nonce.');
    }
    // Development keys: always the token. @clerk/backend 2.10.1 resolves a development handshake by sending
    // the browser to the same page without `__clerk_handshake` (and its dev-browser token), but keeps a
    // `__clerk_handshake_nonce`: the page would redeem the spent nonce again and again (docs/satellites.md).
    const format = ctx.deps.config.instanceKeys === 'development' ? 'token' : asked;
    const target = new URL(redirectUrl);
    // A satellite's page (production keys: `@clerk/backend` hands a signed-out satellite to the handshake,
    // reason `satellite-needs-syncing`): the satellite's own client answers when it is signed in, else
    // the primary domain's, one hop away (docs/satellites.md). With development keys the SDK has already
    // been to the primary (the product's /sign-in) and brings its dev-browser token: no hop.
    const satellite = satelliteOfOrigin(ctx.deps.settings.settings, target.origin);
    const primaryStep = field(ctx.query, PRIMARY_STEP_PARAM) === 'true';
    const production = ctx.deps.config.instanceKeys !== 'development';
    if (
      satellite &&
      production &&
      !primaryStep &&
      !(ctx.client && (await hasSignedInSession(ctx.tx, ctx.client.id, ctx.now)))
    ) {
      const primary = new URL(`${ctx.deps.config.publicUrl}${ctx.deps.config.fapiPath}/v1/client/handshake`);
      for (const [name, value] of Object.entries(ctx.query)) {
        if (typeof value === 'string' && name !== '__clerk_db_jwt') primary.searchParams.set(name, value);
      }
      primary.searchParams.set(PRIMARY_STEP_PARAM, 'true');
      return { redirect: primary.href, status: 307 };
    }
    // The page names an organisation (the SDK's organizationSyncOptions): made active before the token.
    if (
      has(ctx.query, 'organization_id') &&
      (await activateRequestedOrganization(ctx.deps, ctx.tx, {
        client: ctx.client,
        organization: field(ctx.query, 'organization_id') ?? '',
        now: ctx.now,
      }))
    ) {
      ctx.signInStateChanged();
    }
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
    // From the primary domain to a satellite: through the satellite's link, so that its clerk-js gets
    // the same client, when the primary is signed in.
    if (satellite && primaryStep) {
      const next = await primarySyncTarget(ctx.tx, {
        client: ctx.client,
        satellite,
        redirectUrl: target.href,
        now: ctx.now,
      });
      return { redirect: next, status: 307 };
    }
    return { redirect: target.href, status: 307 };
  },
};

/**
 * The page comes back from the primary domain (`__clerk_synced=true`, what the product's /sign-in and its
 * clerk-js add when they send a development satellite its dev-browser token).
 */
function syncedBackFromPrimary(redirectUrl: string | string[] | undefined): boolean {
  if (typeof redirectUrl !== 'string' || !URL.canParse(redirectUrl)) return false;
  return new URL(redirectUrl).searchParams.get('__clerk_synced') === 'true';
}
