import { errors } from '../../errors.ts';
import type { SignInRow } from '../../store/rows.ts';
import { updateSignIn } from '../../store/sign-ins.ts';
import type { Owner } from '../../users/load-users.ts';
import { identifiedWeb3Wallet } from '../../web3/web3-first-factors.ts';
import { checkWeb3Signature, newWeb3Verification } from '../../web3/web3-signature.ts';
import { web3StrategyEnabled } from '../../web3/web3-strategies.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { field } from '../form.ts';
import { firstFactorVerified } from '../sign-ins/first-factor-verified.ts';
import { signInResponse } from '../sign-ins/respond.ts';

/**
 * The wallet a web3 first factor acts on: the sign-in was started with its address, the strategy is one
 * the instance offers, and the first factor is still to be passed (never again once it is).
 */
function signInWallet(ctx: FapiContext, signIn: SignInRow, account: Owner, strategy: string) {
  if (!web3StrategyEnabled(ctx.deps.settings.settings, strategy)) throw errors.strategyForUserInvalid();
  if (signIn.status !== 'needs_first_factor') throw errors.signInNotActionable();
  const wallet = identifiedWeb3Wallet(account.web3Wallets, signIn.identifier);
  if (!wallet) throw errors.strategyForUserInvalid();
  return wallet;
}

/**
 * `prepare_first_factor {strategy: 'web3_<p>_signature', web3_wallet_id}`: a fresh nonce as
 * `first_factor_verification.message`, replacing any earlier one of this sign-in.
 */
export async function prepareWeb3FirstFactor(
  ctx: FapiContext,
  signIn: SignInRow,
  account: Owner,
  strategy: string,
): Promise<FapiResult> {
  const wallet = signInWallet(ctx, signIn, account, strategy);
  const requested = field(ctx.body, 'web3_wallet_id');
  if (requested !== undefined && requested !== wallet.id) {
    throw errors.paramValueInvalid('web3_wallet_id', 'web3_wallet_id does not belong to this sign-in.');
  }
  const verification = newWeb3Verification(strategy, ctx.now);
  return signInResponse(
    ctx,
    await updateSignIn(ctx.tx, signIn.id, { first_factor_verification: verification }, ctx.now),
    account,
  );
}

/**
 * `attempt_first_factor {strategy, signature}`: the wallet's signature of this sign-in's nonce. Right →
 * complete, or the second factor when the user has one; wrong → the nonce is spent (a new one is
 * prepared for another try) and the answer is an error.
 */
export async function attemptWeb3FirstFactor(
  ctx: FapiContext,
  signIn: SignInRow,
  account: Owner,
  strategy: string,
): Promise<FapiResult> {
  const wallet = signInWallet(ctx, signIn, account, strategy);
  const check = await checkWeb3Signature({
    prepared: signIn.first_factor_verification,
    strategy,
    signature: field(ctx.body, 'signature'),
    address: wallet.web3_wallet,
    now: ctx.now,
  });
  if (!check.ok) {
    if (check.verification) {
      await updateSignIn(ctx.tx, signIn.id, { first_factor_verification: check.verification }, ctx.now);
    }
    return { error: check.error };
  }
  const done = await firstFactorVerified(
    ctx,
    signIn,
    account.user,
    check.verification,
    account.secondFactors,
  );
  return signInResponse(ctx, done, account);
}
