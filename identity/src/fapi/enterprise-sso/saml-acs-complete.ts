import { enabledConnection } from '../../enterprise-sso/connections.ts';
import { errors } from '../../errors.ts';
import { takeSamlHandoff, type SamlRequestRow } from '../../store/enterprise-sso.ts';
import { findClientSignIn } from '../../store/sign-ins.ts';
import type { FapiContext, FapiResult, FapiRoute } from '../context.ts';
import { ENTERPRISE_SSO, enterpriseSignInFailed, enterpriseSignInVerified } from './enterprise-sign-in.ts';
import { signInPage } from './saml-acs.ts';
import { newcomerConsent, settleEnterpriseSignUp, waitingEnterpriseSignUp } from './enterprise-sign-up.ts';
import { formInput } from '../form-input.ts';

const single = (v: string | string[] | undefined) => (Array.isArray(v) ? v[v.length - 1] : v) || undefined;

/**
 * GET /v1/saml/acs/:connectionId?handoff=… — where the ACS sends the browser (saml-acs.ts), now with its
 * cookies. The handoff is spent at once; it must be unexpired, for this connection, and its request made
 * for this browser's client and its current sign-in. Then the sign-in moves on as the social callback's
 * does (enterprise-sign-in.ts) and the browser goes to `action_complete_redirect_url` when it is complete,
 * to `redirect_url` (the app's SSO callback, where clerk-js takes over: the second factor, an error)
 * otherwise. Anything else changes nobody's sign-in but this browser's own, if it was waiting for an IdP.
 */
export const samlAcsCompleteRoute: FapiRoute = {
  method: 'GET',
  path: '/saml/acs/:connectionId',
  auth: 'client',
  permission: null,
  input: { query: formInput({ handoff: 'token' }) },
  rateLimits: (req) => [{ key: `saml_acs_complete:ip:${req.ip}`, limit: 30, windowSeconds: 60 }],
  async handler(ctx) {
    if (!enabledConnection(ctx.deps.settings.settings.enterpriseConnections, ctx.params.connectionId!)) {
      throw errors.notFound('saml connection');
    }
    const handoff = single(ctx.query.handoff);
    const row = handoff ? await takeSamlHandoff(ctx.tx, handoff, ctx.now) : null;
    if (
      !row?.outcome ||
      row.connection_id !== ctx.params.connectionId ||
      !row.handoff_expire_at ||
      row.handoff_expire_at <= ctx.now ||
      !ctx.client ||
      row.client_id !== ctx.client.id
    ) {
      return invalidHandoff(ctx);
    }
    const signIn = await findClientSignIn(ctx.tx, row.client_id, row.sign_in_id, ctx.now);
    if (!signIn || ctx.client.sign_in_id !== signIn.id || signIn.status !== 'needs_first_factor') {
      return invalidHandoff(ctx);
    }
    const connection = enabledConnection(ctx.deps.settings.settings.enterpriseConnections, row.connection_id);
    const outcome = row.outcome;
    const waiting = await waitingEnterpriseSignUp(ctx, signIn);
    const done =
      connection && 'identity' in outcome
        ? await enterpriseSignInVerified(
            ctx,
            signIn,
            outcome.identity,
            connection,
            newcomerConsent(ctx, waiting),
          )
        : await enterpriseSignInFailed(
            ctx,
            signIn,
            'refusal' in outcome ? outcome.refusal : errors.oauthProviderFailed(),
          );
    await settleEnterpriseSignUp(ctx, done, waiting);
    return landing(ctx, row, done.status === 'complete');
  },
};

/** Where the browser goes once the sign-in moved (both URLs were checked when the redirect started). */
function landing(ctx: FapiContext, row: SamlRequestRow, complete: boolean): FapiResult {
  const target = (complete ? row.action_complete_redirect_url : null) ?? row.redirect_url ?? signInPage(ctx);
  return { redirect: target };
}

/**
 * A handoff that is unknown, spent, expired, or not this browser's: nothing of anyone else's sign-in
 * moves. If this browser's own sign-in waits for an IdP, it fails with oauth_callback_invalid, which
 * <SignIn/> shows on the sign-in page the browser is sent to.
 */
async function invalidHandoff(ctx: FapiContext): Promise<FapiResult> {
  const signIn = ctx.client?.sign_in_id
    ? await findClientSignIn(ctx.tx, ctx.client.id, ctx.client.sign_in_id, ctx.now)
    : null;
  const waiting = signIn?.first_factor_verification;
  if (signIn && waiting?.status === 'unverified' && waiting.strategy === ENTERPRISE_SSO) {
    const signUp = await waitingEnterpriseSignUp(ctx, signIn);
    await settleEnterpriseSignUp(
      ctx,
      await enterpriseSignInFailed(ctx, signIn, errors.oauthCallbackInvalid()),
      signUp,
    );
  }
  return { redirect: signInPage(ctx) };
}
