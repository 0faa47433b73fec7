import { errors } from '../../errors.ts';
import {
  authorizationUrl,
  discoverProvider,
  newRedirectSecrets,
  readyConfiguration,
} from '../../social/oauth-client.ts';
import { enabledSocialProvider, type SocialProvider } from '../../social/providers.ts';
import type { VerificationState } from '../../store/rows.ts';
import { insertOAuthState, type OAuthStateRow } from '../../store/oauth-states.ts';
import type { FapiContext } from '../context.ts';
import { field } from '../form.ts';
import { WorkOutsideTransaction } from '../work-outside-transaction.ts';

/** How long the browser may spend at the provider (Clerk's external verifications last 10 minutes). */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

export const isSocialStrategy = (strategy: string | undefined): strategy is string =>
  !!strategy && strategy.startsWith('oauth_');

/** The instance's provider for `strategy`, usable to sign in; `strategy` is refused otherwise. */
export function socialProviderFor(ctx: FapiContext, strategy: string): SocialProvider {
  const provider = enabledSocialProvider(ctx.deps.settings.settings.social, strategy);
  if (!provider?.authenticatable) {
    throw errors.paramValueInvalid(
      'strategy',
      `The verification strategy "${strategy}" is not enabled for this application.`,
    );
  }
  return provider;
}

/** The provider's redirect URI: our callback, the same for every provider. */
export const oauthCallbackUrl = (fapiBase: string) => `${fapiBase}/v1/oauth_callback`;

/** What a redirect's state is bound to, besides its secrets (see store/oauth-states.ts). */
export type RedirectBinding = Pick<
  OAuthStateRow,
  'client_id' | 'attempt_kind' | 'attempt_id' | 'redirect_url' | 'action_complete_redirect_url'
> &
  Partial<Pick<OAuthStateRow, 'session_id' | 'scopes'>>;

/**
 * A fresh redirect to `provider`, for a sign-in, a sign-up or a connection alike: new secrets (the state,
 * kept hashed and bound to `binding`; the nonce; the PKCE verifier) and the provider's URL, with the time
 * the state expires.
 */
export async function redirectToProvider(
  ctx: FapiContext,
  provider: SocialProvider,
  binding: RedirectBinding,
  hints: { prompt?: string; loginHint?: string } = {},
): Promise<{ url: string; expireAt: Date }> {
  // Discovery (the provider's metadata, once per provider) is network I/O: never inside the transaction,
  // where a slow provider would hold a connection (PGlite's only one). The request asks for it outside and
  // runs again with it done (fapi/work-outside-transaction.ts; only database writes came before).
  const ready = readyConfiguration(provider);
  if (ready === undefined) {
    throw new WorkOutsideTransaction(async () => {
      await discoverProvider(provider);
      return {};
    });
  }
  const secrets = newRedirectSecrets();
  let url: string;
  try {
    if (ready instanceof Error) throw ready;
    url = await authorizationUrl(provider, secrets, oauthCallbackUrl(ctx.deps.fapiBase), hints);
  } catch (err) {
    // Discovery failed or the secret's variable is missing: the operator's problem, not the user's input.
    console.warn(`identity: ${provider.strategy} cannot be used: ${(err as Error).message}`);
    throw errors.oauthProviderFailed();
  }
  const expireAt = new Date(ctx.now.getTime() + OAUTH_STATE_TTL_MS);
  await insertOAuthState(ctx.tx, {
    ...binding,
    state: secrets.state,
    strategy: provider.strategy,
    code_verifier: secrets.codeVerifier,
    nonce: secrets.nonce,
    expire_at: expireAt,
    now: ctx.now,
  });
  return { url, expireAt };
}

/**
 * Starts the redirect to the provider for a sign-in or a sign-up of this browser, and answers the
 * verification clerk-js needs (`unverified` with the provider's URL, or it reports an invalid answer).
 * The redirect parameters were checked against the allowed origins by the route.
 */
export async function startExternalVerification(
  ctx: FapiContext,
  attempt: { kind: 'sign_in' | 'sign_up'; id: string; clientId: string },
  provider: SocialProvider,
): Promise<VerificationState> {
  const { url, expireAt } = await redirectToProvider(
    ctx,
    provider,
    {
      client_id: attempt.clientId,
      attempt_kind: attempt.kind,
      attempt_id: attempt.id,
      redirect_url: field(ctx.body, 'redirect_url') ?? null,
      action_complete_redirect_url: field(ctx.body, 'action_complete_redirect_url') ?? null,
    },
    { prompt: field(ctx.body, 'oidc_prompt'), loginHint: field(ctx.body, 'oidc_login_hint') },
  );
  return {
    status: 'unverified',
    strategy: provider.strategy,
    attempts: null,
    expire_at: expireAt.getTime(),
    external_verification_redirect_url: url,
    error: null,
  };
}
