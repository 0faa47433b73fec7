import { z } from '@app/contract';
import { errors } from '../../../errors.ts';
import {
  boundInteraction,
  consentDetailsJSON,
  consentLanguage,
  decide,
} from '../../../oauth-provider/oauth-consent.ts';
import { oauthConsentJSON, withdrawConsent } from '../../../oauth-provider/user-consents.ts';
import { CONSENT_BINDING_COOKIE } from '../../../oauth-provider/oidc-provider-instance.ts';
import { consentsOfUser, findConsent } from '../../../store/oauth-consents.ts';
import type { FapiContext, FapiRoute } from '../../context.ts';
import { formInput } from '../../form-input.ts';
import { currentSession } from '../me-session.ts';

const byUid = z.object({ uid: z.string() });
const byApplication = z.object({ application_id: z.string() });

async function bound(ctx: FapiContext) {
  return boundInteraction(
    ctx.tx,
    await ctx.deps.oauthProvider(),
    ctx.deps.keys.codePepper,
    ctx.params.uid!,
    ctx.cookies[CONSENT_BINDING_COOKIE],
  );
}

/**
 * GET /me/oauth_consent/:uid — what the product's consent page shows for an authorization this browser
 * started (docs/oauth-provider.md): the application, the scopes asked with their descriptions in the
 * request's language, where the user will be sent, and whether consent is already given.
 */
export const getOAuthConsentRoute: FapiRoute = {
  method: 'GET',
  path: '/me/oauth_consent/:uid',
  auth: 'session',
  permission: null,
  input: { params: byUid, query: formInput() },
  readOnly: true,
  async handler(ctx) {
    const session = await currentSession(ctx);
    const interaction = await bound(ctx);
    return {
      bare: await consentDetailsJSON(
        ctx.tx,
        interaction,
        session.user_id,
        consentLanguage(ctx.acceptLanguage),
      ),
    };
  },
};

/**
 * POST /me/oauth_consent/:uid/decision — Allow (`allow=true`) or Deny (`allow=false`) for the signed-in
 * user; answers where the browser goes next. Same-origin only, as every Frontend API form (origins.ts).
 */
export const decideOAuthConsentRoute: FapiRoute = {
  method: 'POST',
  path: '/me/oauth_consent/:uid/decision',
  auth: 'session',
  permission: null,
  input: { params: byUid, body: formInput({ allow: 'bool' }) },
  readOnly: true,
  async handler(ctx) {
    const allow = ctx.body.allow;
    if (allow !== 'true' && allow !== 'false') {
      throw allow === undefined
        ? errors.paramMissing('allow')
        : errors.paramValueInvalid('allow', 'allow must be true or false.');
    }
    const session = await currentSession(ctx);
    const interaction = await bound(ctx);
    const provider = await ctx.deps.oauthProvider();
    const answer = await decide(
      ctx.tx,
      provider,
      ctx.deps.keys.codePepper,
      interaction,
      session.user_id,
      allow === 'true',
      ctx.now,
    );
    return { bare: answer };
  },
};

/** GET /me/oauth_consents — the applications the user allowed, newest first. */
export const listOAuthConsentsRoute: FapiRoute = {
  method: 'GET',
  path: '/me/oauth_consents',
  auth: 'session',
  permission: null,
  input: { query: formInput() },
  readOnly: true,
  async handler(ctx) {
    const session = await currentSession(ctx);
    const rows = await consentsOfUser(ctx.tx, session.user_id);
    const language = consentLanguage(ctx.acceptLanguage);
    return { bare: { data: rows.map((r) => oauthConsentJSON(r, language)), total_count: rows.length } };
  },
};

/** GET /me/oauth_consents/:application_id — one of them. */
export const getOAuthConsentOfApplicationRoute: FapiRoute = {
  method: 'GET',
  path: '/me/oauth_consents/:application_id',
  auth: 'session',
  permission: null,
  input: { params: byApplication, query: formInput() },
  readOnly: true,
  async handler(ctx) {
    const session = await currentSession(ctx);
    const row = await findConsent(ctx.tx, session.user_id, ctx.params.application_id!);
    if (!row) throw errors.notFound('oauth_consent');
    return { bare: oauthConsentJSON(row, consentLanguage(ctx.acceptLanguage)) };
  },
};

/**
 * DELETE /me/oauth_consents/:application_id — withdraws the consent: the application's codes, access and
 * refresh tokens for this user stop at once, and its next authorization asks again.
 */
export const deleteOAuthConsentRoute: FapiRoute = {
  method: 'DELETE',
  path: '/me/oauth_consents/:application_id',
  auth: 'session',
  permission: null,
  input: { params: byApplication, body: formInput() },
  async handler(ctx) {
    const session = await currentSession(ctx);
    const row = await withdrawConsent(ctx.tx, session.user_id, ctx.params.application_id!);
    if (!row) throw errors.notFound('oauth_consent');
    return { bare: { object: 'oauth_consent', application_id: row.application_id, deleted: true } };
  },
};

export const oauthConsentRoutes: FapiRoute[] = [
  getOAuthConsentRoute,
  decideOAuthConsentRoute,
  listOAuthConsentsRoute,
  getOAuthConsentOfApplicationRoute,
  deleteOAuthConsentRoute,
];
