import { assertNotLockedOut } from '../../abuse/attempt-gate.ts';
import { ClerkError, errors } from '../../errors.ts';
import { passkeyErrors } from '../../passkeys/passkey-errors.ts';
import { assertMayOpenSession } from '../../sessions/may-open-session.ts';
import type { ClientRow, SignInRow } from '../../store/rows.ts';
import { createSignIn, findClientSignIn, updateSignIn } from '../../store/sign-ins.ts';
import { loadUsers, type Owner } from '../../users/load-users.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { firstFactorVerified } from '../sign-ins/first-factor-verified.ts';
import { loadActionableSignIn } from '../sign-ins/load-sign-in.ts';
import { signInResponse } from '../sign-ins/respond.ts';
import {
  assertionOf,
  assertPasskeysEnabled,
  checkAssertion,
  offerAuthentication,
  passkeyVerification,
  withNonce,
} from './passkey-assertion.ts';

/**
 * Sign-in with a passkey (clerk-js `signIn.authenticateWithPasskey`):
 *
 * - the "Use passkey" button (`flow: 'discoverable'`) and the identifier field's autofill
 *   (`flow: 'autofill'`) send `POST /client/sign_ins strategy=passkey` with no identifier: any passkey of
 *   this relying party on the device may answer;
 * - an identified sign-in's first factor (<SignIn/>'s factor-one passkey card) sends
 *   `prepare_first_factor strategy=passkey`: only the account's own credentials are allowed.
 *
 * Either answers `first_factor_verification.nonce`, the request options as a JSON string; the browser's
 * assertion comes back as `attempt_first_factor strategy=passkey public_key_credential=<JSON>`, and the
 * credential names the account. The challenge is stored as a hash, bound to the sign-in, and spent by the
 * first attempt, right or wrong. What follows a right assertion is what follows any first factor: a
 * user with a second factor is asked for it (`needs_second_factor`), a locked account stays locked.
 */

const subjectOf = (signIn: SignInRow) => `sign_in:${signIn.id}`;

/** Offers a new challenge on the sign-in (replacing any earlier one) and answers with it as the nonce. */
async function offerChallenge(ctx: FapiContext, signIn: SignInRow, account?: Owner): Promise<FapiResult> {
  const { nonce, state } = await offerAuthentication(ctx, subjectOf(signIn), signIn.user_id);
  const prepared = await updateSignIn(ctx.tx, signIn.id, { first_factor_verification: state }, ctx.now);
  return withNonce(await signInResponse(ctx, prepared, account), nonce);
}

/** POST /client/sign_ins `strategy=passkey` with no identifier: a sign-in whose passkey will name the account. */
export async function startPasskeySignIn(ctx: FapiContext, client: ClientRow): Promise<FapiResult> {
  assertPasskeysEnabled(ctx);
  const signIn = await createSignIn(ctx.tx, {
    clientId: client.id,
    status: 'needs_identifier',
    identifier: null,
    userId: null,
    now: ctx.now,
  });
  await ctx.updateClient({ sign_in_id: signIn.id });
  return offerChallenge(ctx, signIn);
}

/** POST /client/sign_ins `identifier=… strategy=passkey`: the new identified sign-in's challenge. */
export async function preparePasskeyFactor(
  ctx: FapiContext,
  signIn: SignInRow,
  account: Owner,
): Promise<FapiResult> {
  assertPasskeysEnabled(ctx);
  return offerChallenge(ctx, signIn, account);
}

/** This browser's sign-in named in the path, still in progress and not bound to an enterprise connection. */
async function passkeySignIn(ctx: FapiContext): Promise<SignInRow> {
  if (!ctx.client) throw errors.notFound('sign in');
  const signIn = await findClientSignIn(ctx.tx, ctx.client.id, ctx.params.id!, ctx.now);
  if (!signIn) throw errors.notFound('sign in');
  if (signIn.enterprise_connection_id) throw errors.strategyForUserInvalid();
  if (signIn.status === 'complete') throw errors.signInNotActionable();
  return signIn;
}

/** POST /client/sign_ins/:id/prepare_first_factor `strategy=passkey` (identified or not). */
export async function preparePasskeyFirstFactor(ctx: FapiContext): Promise<FapiResult> {
  const signIn = await passkeySignIn(ctx);
  assertPasskeysEnabled(ctx);
  if (!signIn.user_id) {
    await assertMayOpenSession(ctx, ctx.client!.id, null);
    return offerChallenge(ctx, signIn);
  }
  const { account } = await loadActionableSignIn(ctx);
  if (signIn.status !== 'needs_first_factor') throw errors.strategyForUserInvalid();
  return offerChallenge(ctx, signIn, account);
}

/** POST /client/sign_ins/:id/attempt_first_factor `strategy=passkey public_key_credential=<JSON>`. */
export async function attemptPasskeyFirstFactor(ctx: FapiContext): Promise<FapiResult> {
  const signIn = await passkeySignIn(ctx);
  assertPasskeysEnabled(ctx);
  const credential = assertionOf(ctx);
  // A sign-in past its first factor (a second factor, a new password) takes no passkey.
  if (signIn.status !== 'needs_identifier' && signIn.status !== 'needs_first_factor') {
    return { error: passkeyErrors.challengeInvalid() };
  }
  const checked = await checkAssertion(ctx, subjectOf(signIn), credential, signIn.user_id);
  if ('error' in checked) return checked;
  const { passkey } = checked;

  const account = (await loadUsers(ctx.tx, [passkey.user_id])).get(passkey.user_id);
  if (!account) return { error: errors.notFound('user') };
  try {
    await assertNotLockedOut(ctx, account.user);
    await assertMayOpenSession(ctx, ctx.client!.id, account.user.id);
  } catch (err) {
    if (err instanceof ClerkError) return { error: err };
    throw err;
  }
  const identified = signIn.user_id
    ? signIn
    : await updateSignIn(
        ctx.tx,
        signIn.id,
        { user_id: account.user.id, identifier: identifierOf(account), status: 'needs_first_factor' },
        ctx.now,
      );
  const done = await firstFactorVerified(
    ctx,
    identified,
    account.user,
    passkeyVerification('verified', null),
    account.secondFactors,
  );
  return signInResponse(ctx, done, account);
}

/** What <SignIn/> shows as "signing in as" for an account a passkey named: its primary identifier. */
function identifierOf(account: Owner): string | null {
  const { user, emails, phones } = account;
  return (
    emails.find((e) => e.id === user.primary_email_address_id)?.email_address ??
    user.username ??
    phones.find((p) => p.id === user.primary_phone_number_id)?.phone_number ??
    null
  );
}
