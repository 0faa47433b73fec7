import { enabledConnection } from '../../enterprise-sso/connections.ts';
import { oidcProviderOf } from '../../enterprise-sso/oidc.ts';
import { authnRequest, SAML_REQUEST_TTL_MS } from '../../enterprise-sso/saml.ts';
import { errors } from '../../errors.ts';
import { insertSamlRequest } from '../../store/enterprise-sso.ts';
import type { SignInRow, VerificationState } from '../../store/rows.ts';
import { updateSignIn } from '../../store/sign-ins.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { field } from '../form.ts';
import { redirectToProvider } from '../oauth/start-external-verification.ts';
import { signInResponse } from '../sign-ins/respond.ts';
import { ENTERPRISE_SSO } from './enterprise-sign-in.ts';

export const isEnterpriseSsoStrategy = (strategy: string | undefined) =>
  strategy === ENTERPRISE_SSO || strategy === 'saml';

/**
 * `prepare_first_factor strategy=enterprise_sso` (or `create` with it): a fresh redirect to the IdP of the
 * connection the sign-in's address belongs to, for this browser's sign-in. SAML: an AuthnRequest by the
 * HTTP-Redirect binding, its ID kept hashed and bound to the client and the sign-in (the ACS matches the
 * response's InResponseTo against it, once). OpenID Connect: the authorization URL, exactly as a social
 * provider's (state hashed and bound, PKCE, nonce). The redirect parameters were checked by the route.
 * The sign-in answers `unverified` with the URL, which clerk-js navigates to.
 */
export async function startEnterpriseSso(ctx: FapiContext, signIn: SignInRow): Promise<FapiResult> {
  return signInResponse(ctx, await redirectToEnterpriseIdp(ctx, signIn));
}

/** The sign-in with its fresh redirect to the IdP (`first_factor_verification`, unverified, with the URL). */
export async function redirectToEnterpriseIdp(ctx: FapiContext, signIn: SignInRow): Promise<SignInRow> {
  const connection = signIn.enterprise_connection_id
    ? enabledConnection(ctx.deps.settings.settings.enterpriseConnections, signIn.enterprise_connection_id)
    : null;
  if (!connection) throw errors.strategyForUserInvalid();
  const redirectUrl = field(ctx.body, 'redirect_url') ?? null;
  const actionCompleteRedirectUrl = field(ctx.body, 'action_complete_redirect_url') ?? null;
  let url: string;
  let expireAt: Date;
  if (connection.protocol === 'saml') {
    let request: { url: string; requestId: string };
    try {
      request = await authnRequest(connection, ctx.deps.fapiBase);
    } catch (err) {
      // A certificate's variable is missing or the settings are otherwise unusable: the operator's problem.
      console.warn(`identity: ${connection.id} cannot be used: ${(err as Error).message}`);
      throw errors.oauthProviderFailed();
    }
    expireAt = new Date(ctx.now.getTime() + SAML_REQUEST_TTL_MS);
    await insertSamlRequest(ctx.tx, {
      requestId: request.requestId,
      connectionId: connection.id,
      clientId: signIn.client_id,
      signInId: signIn.id,
      redirectUrl,
      actionCompleteRedirectUrl,
      expireAt,
      now: ctx.now,
    });
    url = request.url;
  } else {
    ({ url, expireAt } = await redirectToProvider(
      ctx,
      oidcProviderOf(connection),
      {
        client_id: signIn.client_id,
        attempt_kind: 'sign_in',
        attempt_id: signIn.id,
        redirect_url: redirectUrl,
        action_complete_redirect_url: actionCompleteRedirectUrl,
      },
      { prompt: field(ctx.body, 'oidc_prompt'), loginHint: signIn.identifier ?? undefined },
    ));
  }
  const verification: VerificationState = {
    status: 'unverified',
    strategy: ENTERPRISE_SSO,
    attempts: null,
    expire_at: expireAt.getTime(),
    external_verification_redirect_url: url,
    error: null,
  };
  return updateSignIn(ctx.tx, signIn.id, { first_factor_verification: verification }, ctx.now);
}
