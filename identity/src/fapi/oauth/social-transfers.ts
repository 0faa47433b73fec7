import { assertNotLockedOut } from '../../abuse/attempt-gate.ts';
import { errors } from '../../errors.ts';
import { assertMayOpenSession } from '../../sessions/may-open-session.ts';
import { enabledSocialProvider } from '../../social/providers.ts';
import type { ClientRow } from '../../store/rows.ts';
import { createSignIn, findClientSignIn } from '../../store/sign-ins.ts';
import { findClientSignUp, insertSignUp, type SignUpChanges } from '../../store/sign-ups.ts';
import { findUserById } from '../../store/users.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { firstFactorVerified } from '../sign-ins/first-factor-verified.ts';
import { signInResponse } from '../sign-ins/respond.ts';
import { completeIfReady } from '../sign-ups/complete-sign-up.ts';
import { externalAccountOwner } from './external-account-owner.ts';
import { externalVerification } from './social-sign-in.ts';
import { socialSignUpChanges } from './social-sign-up.ts';
import { assertMaySignUp } from '../../sign-up-modes/sign-up-mode.ts';
import {
  enterpriseIdentitySignUpChanges,
  enterpriseSignUpConnection,
} from '../enterprise-sso/enterprise-sign-up.ts';

const nothingToTransfer = () =>
  errors.paramValueInvalid('transfer', 'There is no sign-in or sign-up of an external account to transfer.');

/**
 * POST /client/sign_ups `transfer=true`: the browser's sign-in found no account for the provider's user
 * (`transferable`), so a sign-up is made from what the provider (or the enterprise IdP) said. Only this
 * client's own sign-in can be transferred, and only once (the client lets go of it). Restricted and
 * waitlist modes refuse a social provider's newcomer, not an enterprise IdP's (it opens sign-up).
 */
export async function transferSignInToSignUp(
  ctx: FapiContext,
  client: ClientRow,
  inputChanges: SignUpChanges,
): Promise<FapiResult> {
  const signIn = client.sign_in_id
    ? await findClientSignIn(ctx.tx, client.id, client.sign_in_id, ctx.now)
    : null;
  const transferable = signIn?.first_factor_verification?.status === 'transferable';
  const settings = ctx.deps.settings.settings;
  let changes: SignUpChanges;
  if (transferable && signIn.enterprise_identity) {
    await enterpriseSignUpConnection(ctx, signIn.enterprise_identity);
    changes = enterpriseIdentitySignUpChanges(signIn.enterprise_identity);
  } else {
    assertMaySignUp(settings, { ticket: false, enterprise: false });
    const identity = signIn?.external_identity;
    if (!transferable || !identity) throw nothingToTransfer();
    if (!enabledSocialProvider(settings.social, identity.strategy)?.signUpAllowed) {
      throw errors.notAllowedToSignUp();
    }
    changes = await socialSignUpChanges(ctx, identity, null);
  }
  const signUp = await insertSignUp(ctx.tx, client.id, { ...inputChanges, ...changes }, ctx.now);
  await ctx.updateClient({ sign_up_id: signUp.id, sign_in_id: null });
  return completeIfReady(ctx, signUp);
}

/**
 * POST /client/sign_ins `transfer=true`: the browser's sign-up met an account that already exists
 * (`external_account_exists`), so the person signs in to it, as after any first factor.
 */
export async function transferSignUpToSignIn(ctx: FapiContext, client: ClientRow): Promise<FapiResult> {
  const signUp = client.sign_up_id
    ? await findClientSignUp(ctx.tx, client.id, client.sign_up_id, ctx.now)
    : null;
  const identity = signUp?.external_identity;
  if (!identity || signUp.external_account_verification?.status !== 'transferable') throw nothingToTransfer();
  const userId = await externalAccountOwner(ctx, identity, { link: true });
  const user = userId ? await findUserById(ctx.tx, userId) : null;
  if (!user) throw errors.externalAccountNotFound();
  await assertNotLockedOut(ctx, user);
  await assertMayOpenSession(ctx, client.id, user.id);
  const signIn = await createSignIn(ctx.tx, {
    clientId: client.id,
    status: 'needs_first_factor',
    identifier: identity.email,
    userId: user.id,
    now: ctx.now,
  });
  await ctx.updateClient({ sign_in_id: signIn.id, sign_up_id: null });
  const done = await firstFactorVerified(
    ctx,
    signIn,
    user,
    externalVerification('verified', identity.strategy),
  );
  return signInResponse(ctx, done);
}
