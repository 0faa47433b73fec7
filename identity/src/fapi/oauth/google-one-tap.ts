import { errors } from '../../errors.ts';
import { signUpJSON } from '../../serializers/sign-up.ts';
import {
  GOOGLE_ONE_TAP,
  oneTapProvider,
  verifyGoogleOneTapToken,
  type OneTapIdentity,
} from '../../social/google-one-tap.ts';
import type { SocialProvider } from '../../social/providers.ts';
import { findExternalAccount } from '../../store/external-accounts.ts';
import { oneTapTokenUsed, recordOneTapToken } from '../../store/google-one-tap-tokens.ts';
import type { ClientRow } from '../../store/rows.ts';
import { createSignIn } from '../../store/sign-ins.ts';
import { insertSignUp, type SignUpChanges } from '../../store/sign-ups.ts';
import { findUserById } from '../../store/users.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { signInResponse } from '../sign-ins/respond.ts';
import { completeIfReady } from '../sign-ups/complete-sign-up.ts';
import { WorkOutsideTransaction } from '../work-outside-transaction.ts';
import { externalAccountOwner } from './external-account-owner.ts';
import { externalAccountUserSignIn, externalVerification } from './social-sign-in.ts';
import { socialSignUpChanges } from './social-sign-up.ts';

/**
 * Google One Tap (clerk-js `authenticateWithGoogleOneTap`): the browser hands over the ID token Google's
 * prompt gave it, first as `POST /client/sign_ins strategy=google_one_tap token=…`; when that answers
 * `external_account_not_found`, as `POST /client/sign_ups strategy=google_one_tap token=… legal_accepted`.
 * The account is Google's (`oauth_google`): the same external account the Google button signs in with,
 * found and linked exactly as at the redirect's callback.
 *
 * A token is used once: the first request it signs someone in with, or starts a sign-up with, records it
 * and any later one is refused. A sign-in that finds nobody does not use it (the sign-up that follows does).
 */

/** The provider One Tap is offered with, or the strategy is refused as not enabled. */
function providerFor(ctx: FapiContext): SocialProvider {
  const provider = oneTapProvider(ctx.deps.settings.settings.social);
  if (!provider) {
    throw errors.paramValueInvalid(
      'strategy',
      `The verification strategy "${GOOGLE_ONE_TAP}" is not enabled for this application.`,
    );
  }
  return provider;
}

/**
 * The token verified against the provider's keys, not yet used. The check fetches Google's keys, so it is
 * done outside the transaction (WorkOutsideTransaction: the request runs again with its answer).
 */
async function verifiedToken(
  ctx: FapiContext,
  provider: SocialProvider,
  token: string,
): Promise<OneTapIdentity> {
  const prepared = ctx.prepared.googleOneTap;
  if (!prepared || prepared.token !== token) {
    throw new WorkOutsideTransaction(async () => ({
      googleOneTap: { token, answer: await verifyGoogleOneTapToken(provider, token, ctx.deps.clock()) },
    }));
  }
  const answer = prepared.answer;
  if ('refused' in answer) {
    if (answer.refused === 'email_unverified') throw errors.googleOneTapEmailUnverified();
    if (answer.refused === 'provider_failed') throw errors.oauthProviderFailed();
    throw errors.googleOneTapTokenInvalid();
  }
  if (await oneTapTokenUsed(ctx.tx, answer.tokenKey)) throw errors.googleOneTapTokenInvalid();
  return answer;
}

/** Records the token as used, or refuses it if another request used it meanwhile. */
async function useToken(ctx: FapiContext, verified: OneTapIdentity): Promise<void> {
  if (!(await recordOneTapToken(ctx.tx, verified.tokenKey, verified.expireAt, ctx.now))) {
    throw errors.googleOneTapTokenInvalid();
  }
}

function tokenOf(ctx: FapiContext, token: string | undefined): string {
  if (token === undefined) throw errors.paramMissing('token');
  return token;
}

/**
 * POST /client/sign_ins `strategy=google_one_tap`: the Google account's user (linked, or holding the
 * address Google asserts verified, which links it) signs in as after any first factor — complete, or
 * `needs_second_factor` for a user with two-factor sign-in. Nobody: `external_account_not_found`, and
 * clerk-js signs up with the same token.
 */
export async function signInWithGoogleOneTap(
  ctx: FapiContext,
  client: ClientRow,
  rawToken: string | undefined,
): Promise<FapiResult> {
  const provider = providerFor(ctx);
  const verified = await verifiedToken(ctx, provider, tokenOf(ctx, rawToken));
  // One Tap grants no scopes: the account keeps those its redirects and connections were granted.
  const linked = await findExternalAccount(
    ctx.tx,
    verified.identity.strategy,
    verified.identity.providerUserId,
  );
  const identity = linked
    ? { ...verified.identity, approvedScopes: linked.approved_scopes }
    : verified.identity;
  const userId = await externalAccountOwner(ctx, identity, { link: true });
  const user = userId ? await findUserById(ctx.tx, userId) : null;
  // The transaction commits (the client this request may have made is kept for the sign-up that follows).
  if (!user) return { error: errors.externalAccountNotFound() };
  await useToken(ctx, verified);
  const signIn = await createSignIn(ctx.tx, {
    clientId: client.id,
    status: 'needs_identifier',
    identifier: null,
    userId: null,
    now: ctx.now,
  });
  await ctx.updateClient({ sign_in_id: signIn.id });
  return signInResponse(
    ctx,
    await externalAccountUserSignIn(ctx, signIn, user, identity.email, GOOGLE_ONE_TAP),
  );
}

/**
 * POST /client/sign_ups `strategy=google_one_tap`: a sign-up from the Google account (its names and its
 * verified address), complete at once unless the instance asks for more (`missing_requirements`, which
 * clerk-js continues on <SignUp/>). An account that already exists makes the verification `transferable`
 * with `external_account_exists`, and clerk-js signs in instead (`transfer=true`).
 */
export async function signUpWithGoogleOneTap(
  ctx: FapiContext,
  client: ClientRow,
  rawToken: string | undefined,
  inputChanges: SignUpChanges,
): Promise<FapiResult> {
  const provider = providerFor(ctx);
  const verified = await verifiedToken(ctx, provider, tokenOf(ctx, rawToken));
  const identity = verified.identity;
  if (await externalAccountOwner(ctx, identity, { link: false })) {
    await useToken(ctx, verified);
    const signUp = await insertSignUp(
      ctx.tx,
      client.id,
      {
        ...inputChanges,
        external_identity: identity,
        external_account_verification: externalVerification(
          'transferable',
          GOOGLE_ONE_TAP,
          errors.externalAccountExists(),
        ),
      },
      ctx.now,
    );
    await ctx.updateClient({ sign_up_id: signUp.id });
    return { response: signUpJSON(signUp) };
  }
  if (!provider.signUpAllowed) throw errors.notAllowedToSignUp();
  await useToken(ctx, verified);
  const signUp = await insertSignUp(
    ctx.tx,
    client.id,
    {
      ...inputChanges,
      ...(await socialSignUpChanges(ctx, identity, null)),
      external_account_verification: externalVerification('verified', GOOGLE_ONE_TAP),
    },
    ctx.now,
  );
  await ctx.updateClient({ sign_up_id: signUp.id });
  return completeIfReady(ctx, signUp);
}
