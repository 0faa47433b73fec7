import { enabledConnection } from '../../enterprise-sso/connections.ts';
import { connectionIdOfStrategy, enterpriseIdentityOf, oidcProviderOf } from '../../enterprise-sso/oidc.ts';
import { errors } from '../../errors.ts';
import type { InstanceSettings } from '../../instance/settings/schema.ts';
import { enabledSocialProvider, type SocialProvider } from '../../social/providers.ts';
import type { SignInRow } from '../../store/rows.ts';
import type { FapiContext } from '../context.ts';
import type { ProviderAnswer } from '../prepared-work.ts';
import { enterpriseSignInFailed, enterpriseSignInVerified } from './enterprise-sign-in.ts';
import { newcomerConsent, settleEnterpriseSignUp, waitingEnterpriseSignUp } from './enterprise-sign-up.ts';

/** The provider a redirect's strategy names: a social provider, or an enabled OpenID Connect connection. */
export function callbackProvider(
  settings: Pick<InstanceSettings, 'social' | 'enterpriseConnections'>,
  strategy: string,
): SocialProvider | null {
  const connectionId = connectionIdOfStrategy(strategy);
  if (connectionId === null) return enabledSocialProvider(settings.social, strategy);
  const connection = enabledConnection(settings.enterpriseConnections, connectionId);
  return connection?.protocol === 'oidc' ? oidcProviderOf(connection) : null;
}

/** The redirect was to an OpenID Connect connection (`enterprise_sso:<id>`), not a social provider. */
export const isEnterpriseRedirect = (strategy: string) => connectionIdOfStrategy(strategy) !== null;

/**
 * `/v1/oauth_callback` for an OpenID Connect connection's redirect (the state already checked and spent,
 * the code exchanged and the ID token verified by the social callback): the sign-in moves on as after the
 * SAML ACS (enterprise-sign-in.ts), or fails with the IdP's refusal.
 */
export async function enterpriseOidcSignIn(
  ctx: FapiContext,
  signIn: SignInRow,
  strategy: string,
  answer: ProviderAnswer,
): Promise<SignInRow> {
  const connection = enabledConnection(
    ctx.deps.settings.settings.enterpriseConnections,
    connectionIdOfStrategy(strategy)!,
  );
  const waiting = await waitingEnterpriseSignUp(ctx, signIn);
  const done =
    !connection || signIn.enterprise_connection_id !== connection.id
      ? await enterpriseSignInFailed(ctx, signIn, errors.oauthProviderFailed())
      : !('identity' in answer)
        ? await enterpriseSignInFailed(ctx, signIn, answer.refusal)
        : await enterpriseSignInVerified(
            ctx,
            signIn,
            enterpriseIdentityOf(connection, answer.identity),
            connection,
            newcomerConsent(ctx, waiting),
          );
  // A sign-up of the same address waiting for this IdP follows the sign-in (enterprise-sign-up.ts).
  await settleEnterpriseSignUp(ctx, done, waiting);
  return done;
}
