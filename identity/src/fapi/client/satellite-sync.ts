import { satelliteOfOrigin, type InstanceDomain } from '../../domains/domains.ts';
import { primarySyncTarget, redeemSatelliteLink, syncedUrl } from '../../domains/satellite-sync.ts';
import { errors } from '../../errors.ts';
import type { FapiContext, FapiRoute } from '../context.ts';
import { field } from '../form.ts';
import { formInput } from '../form-input.ts';

/** Marks the hop from a satellite's Frontend API to the primary's (the step that reads the primary's client). */
export const PRIMARY_STEP_PARAM = '__clerk_sync_primary';

/**
 * `redirect_url` of a sync: an absolute http(s) URL exactly on one of the instance's satellite domains
 * (no subdomain, no other port or scheme, no userinfo), and the satellite it is on.
 */
function satelliteRedirect(ctx: FapiContext): { redirectUrl: string; satellite: InstanceDomain } {
  const redirectUrl = field(ctx.query, 'redirect_url');
  if (redirectUrl === undefined) throw errors.paramMissing('redirect_url');
  const invalid = () =>
    errors.paramValueInvalid(
      'redirect_url',
      'redirect_url must point to a satellite domain of this application.',
    );
  if (!URL.canParse(redirectUrl)) throw invalid();
  const url = new URL(redirectUrl);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password)
    throw invalid();
  const satellite = satelliteOfOrigin(ctx.deps.settings.settings, url.origin);
  if (!satellite) throw invalid();
  return { redirectUrl: url.href, satellite };
}

/**
 * GET /client/sync — where a signed-out satellite's clerk-js (production keys) sends the browser
 * (`<satellite frontend API>/v1/client/sync?redirect_url=<its page>`). On the satellite's Frontend API it
 * hops to the primary's; there it reads the primary's client and either sends the browser back with
 * `__clerk_synced=true` (signed out) or on to the satellite's `/v1/client/link` with a single-use token.
 */
export const syncRoute: FapiRoute = {
  method: 'GET',
  path: '/client/sync',
  auth: 'client',
  permission: null,
  input: {
    query: formInput({ redirect_url: 'url', [PRIMARY_STEP_PARAM]: 'bool' }),
  },
  rateLimits: (req) => [{ key: `sync:ip:${req.ip}`, limit: 60, windowSeconds: 60 }],
  async handler(ctx) {
    const { redirectUrl, satellite } = satelliteRedirect(ctx);
    if (field(ctx.query, PRIMARY_STEP_PARAM) !== 'true') {
      // The satellite's step: on to the primary domain's Frontend API, where its client cookie is.
      const primary = new URL(`${ctx.deps.config.publicUrl}${ctx.deps.config.fapiPath}/v1/client/sync`);
      primary.searchParams.set('redirect_url', redirectUrl);
      primary.searchParams.set(PRIMARY_STEP_PARAM, 'true');
      return { redirect: primary.href, status: 307 };
    }
    const target = await primarySyncTarget(ctx.tx, {
      client: ctx.client,
      satellite,
      redirectUrl,
      now: ctx.now,
    });
    return { redirect: target, status: 307 };
  },
};

/**
 * GET /client/link — the satellite's Frontend API, the last hop of the sync: a valid token sets the
 * satellite's `__client` cookie to a credential of the primary's client; the browser lands on
 * `redirect_url` with `__clerk_synced=true` either way (a spent, expired or foreign token sets nothing).
 */
export const linkRoute: FapiRoute = {
  method: 'GET',
  path: '/client/link',
  auth: 'client',
  permission: null,
  input: { query: formInput({ token: 'token', redirect_url: 'url' }) },
  rateLimits: (req) => [{ key: `sync:ip:${req.ip}`, limit: 60, windowSeconds: 60 }],
  async handler(ctx) {
    const { redirectUrl, satellite } = satelliteRedirect(ctx);
    const token = field(ctx.query, 'token');
    if (token === undefined) throw errors.paramMissing('token');
    const credential = await redeemSatelliteLink(ctx.tx, { token, satellite, redirectUrl, now: ctx.now });
    return {
      redirect: syncedUrl(redirectUrl),
      status: 307,
      ...(credential ? { clientCookie: credential } : {}),
    };
  },
};
