import { sha256 } from '../../crypto/secrets.ts';
import { ClerkError, errors, type ClerkErrorJSON } from '../../errors.ts';
import { exchangeCode } from '../../social/oauth-client.ts';
import { enabledSocialProvider } from '../../social/providers.ts';
import { consumeOAuthState, findUsableOAuthState, type OAuthStateRow } from '../../store/oauth-states.ts';
import { findClientSignIn, updateSignIn } from '../../store/sign-ins.ts';
import { findClientSignUp, updateSignUp } from '../../store/sign-ups.ts';
import type { FapiContext, FapiRequestInfo, FapiResult, FapiRoute } from '../context.ts';
import type { ProviderAnswer } from '../prepared-work.ts';
import { socialSignInVerified, externalVerification } from './social-sign-in.ts';
import { socialSignUpVerified } from './social-sign-up.ts';
import { connectAccountCallback } from './connect-account-callback.ts';
import { oauthCallbackUrl } from './start-external-verification.ts';
import {
  callbackProvider,
  enterpriseOidcSignIn,
  isEnterpriseRedirect,
} from '../enterprise-sso/oidc-callback.ts';
import { isPopupCallbackRedirect } from '../../http/redirects.ts';
import { formInput } from '../form-input.ts';

const single = (v: string | string[] | undefined) => (Array.isArray(v) ? v[v.length - 1] : v) || undefined;

/**
 * GET /v1/oauth_callback — the redirect URI every provider sends the browser back to, with `code` and
 * `state` (or `error`). The state must be one this browser's client was given for its current sign-in or
 * sign-up, unused and unexpired; it is spent whatever happens next. The code is exchanged (PKCE, and for
 * OpenID Connect the ID token verified with its nonce) before the transaction opens; then the attempt
 * moves on (spec §4) and the browser goes to `action_complete_redirect_url` when it is complete, to
 * `redirect_url` (the app's SSO callback, where clerk-js takes over) otherwise.
 */
export const oauthCallbackRoute: FapiRoute = {
  method: 'GET',
  path: '/oauth_callback',
  auth: 'client',
  permission: null,
  input: { query: formInput({ state: 'token', code: 'token', error: 'text', iss: 'url' }) },
  rateLimits: (req) => [{ key: `oauth_callback:ip:${req.ip}`, limit: 30, windowSeconds: 60 }],
  async beforeTransaction(req, deps, clientToken) {
    const state = single(req.query.state);
    if (!state || !clientToken) return {};
    const row = await findUsableOAuthState(deps.db, state, sha256(clientToken), deps.clock());
    if (!row) return {};
    return { oauthCallback: { stateId: row.id, answer: await askProvider(req, deps.fapiBase, row, deps) } };
  },
  async handler(ctx) {
    const state = single(ctx.query.state);
    const row = state ? await consumeOAuthState(ctx.tx, state, ctx.client?.id ?? null, ctx.now) : null;
    const prepared = ctx.prepared.oauthCallback;
    if (!row || !prepared || prepared.stateId !== row.id) return invalidCallback(ctx);
    const provider = enabledSocialProvider(ctx.deps.settings.settings.social, row.strategy);
    const answer = prepared.answer;
    if (row.attempt_kind === 'connect_account') return connectAccountCallback(ctx, row, answer);
    if (row.attempt_kind === 'sign_in') {
      const signIn = await findClientSignIn(ctx.tx, row.client_id, row.attempt_id, ctx.now);
      if (!signIn || ctx.client?.sign_in_id !== signIn.id) return invalidCallback(ctx);
      const done = isEnterpriseRedirect(row.strategy)
        ? await enterpriseOidcSignIn(ctx, signIn, row.strategy, answer)
        : 'identity' in answer
          ? await socialSignInVerified(ctx, signIn, answer.identity, provider?.signUpAllowed ?? false)
          : await updateSignIn(
              ctx.tx,
              signIn.id,
              { first_factor_verification: failed(row.strategy, answer.refusal) },
              ctx.now,
            );
      return landing(ctx, row, done.status === 'complete' ? done.created_session_id : null);
    }
    const signUp = await findClientSignUp(ctx.tx, row.client_id, row.attempt_id, ctx.now);
    if (!signUp || ctx.client?.sign_up_id !== signUp.id || signUp.status !== 'missing_requirements') {
      return invalidCallback(ctx);
    }
    if ('refusal' in answer) {
      await updateSignUp(
        ctx.tx,
        signUp.id,
        { external_account_verification: failed(row.strategy, answer.refusal) },
        ctx.now,
      );
      return landing(ctx, row, null);
    }
    try {
      const { complete } = await socialSignUpVerified(
        ctx,
        signUp,
        answer.identity,
        provider?.signUpAllowed ?? false,
      );
      if (!complete) return landing(ctx, row, null);
      const completed = await findClientSignUp(ctx.tx, row.client_id, signUp.id, ctx.now);
      return landing(ctx, row, completed?.created_session_id ?? null);
    } catch (err) {
      // The account could not be created after all (an address or username taken meanwhile).
      if (!(err instanceof ClerkError)) throw err;
      await updateSignUp(
        ctx.tx,
        signUp.id,
        { external_account_verification: failed(row.strategy, err.toJSON()) },
        ctx.now,
      );
      return landing(ctx, row, null);
    }
  },
};

async function askProvider(
  req: FapiRequestInfo,
  fapiBase: string,
  row: OAuthStateRow,
  deps: Parameters<NonNullable<FapiRoute['beforeTransaction']>>[1],
): Promise<ProviderAnswer> {
  const providerError = single(req.query.error);
  if (providerError) {
    return {
      refusal: (providerError === 'access_denied'
        ? errors.oauthAccessDenied()
        : errors.oauthProviderFailed()
      ).toJSON(),
    };
  }
  const provider = callbackProvider(deps.settings.settings, row.strategy);
  if (!provider) return { refusal: errors.oauthProviderFailed().toJSON() };
  const callbackUrl = new URL(oauthCallbackUrl(fapiBase));
  for (const [name, value] of Object.entries(req.query)) {
    const v = single(value);
    if (v !== undefined && !name.startsWith('_clerk') && name !== '__clerk_api_version') {
      callbackUrl.searchParams.set(name, v);
    }
  }
  try {
    const identity = await exchangeCode(provider, callbackUrl, {
      state: single(req.query.state)!,
      nonce: row.nonce,
      codeVerifier: row.code_verifier,
    });
    return { identity };
  } catch (err) {
    // openid-client's message says what failed (a claim, a signature, the provider's error code); it
    // never holds the code or a token.
    console.warn(`identity: ${row.strategy} sign-in refused: ${(err as Error).message}`);
    return { refusal: errors.oauthProviderFailed().toJSON() };
  }
}

const failed = (strategy: string, error: ClerkErrorJSON) => ({
  ...externalVerification('failed', strategy),
  error,
});

/**
 * Where the browser goes once the callback is done (both URLs were checked when the redirect started);
 * `createdSessionId` is the session a completed attempt opened, null while it is not complete. A popup
 * (clerk-js's `authenticateWithPopup`) lands on the `accounts.` popup-callback page, which cannot read
 * this origin's client: a completed attempt tells it the session to hand to the opener, as
 * `__clerk_created_session` (Clerk's query parameter for a session made elsewhere).
 */
function landing(ctx: FapiContext, row: OAuthStateRow, createdSessionId: string | null): FapiResult {
  const completed = createdSessionId !== null ? row.action_complete_redirect_url : null;
  if (createdSessionId !== null && completed && isPopupCallbackRedirect(completed, ctx.deps.config)) {
    const url = new URL(completed);
    url.searchParams.set('__clerk_created_session', createdSessionId);
    return { redirect: url.toString() };
  }
  return { redirect: completed ?? row.redirect_url ?? signInPage(ctx) };
}

const signInPage = (ctx: FapiContext) => `${ctx.deps.config.publicUrl}/sign-in`;

/**
 * A state that is unknown, spent, expired, or not this browser's: nothing of anyone else's attempt moves
 * and nothing is created. If this browser is itself waiting for a provider, that sign-in fails with the
 * error, which <SignIn/> shows (and clears) on the sign-in page the browser is sent to.
 */
async function invalidCallback(ctx: FapiContext): Promise<FapiResult> {
  const signIn = ctx.client?.sign_in_id
    ? await findClientSignIn(ctx.tx, ctx.client.id, ctx.client.sign_in_id, ctx.now)
    : null;
  const waiting = signIn?.first_factor_verification;
  if (
    signIn &&
    waiting?.status === 'unverified' &&
    (waiting.strategy?.startsWith('oauth_') || waiting.strategy === 'enterprise_sso')
  ) {
    await updateSignIn(
      ctx.tx,
      signIn.id,
      { first_factor_verification: failed(waiting.strategy, errors.oauthCallbackInvalid().toJSON()) },
      ctx.now,
    );
  }
  return { redirect: signInPage(ctx) };
}
