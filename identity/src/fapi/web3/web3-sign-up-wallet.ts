import { errors } from '../../errors.ts';
import type { SignUpRow } from '../../store/rows.ts';
import {
  dropUnverifiedWeb3WalletCopies,
  insertWeb3Wallet,
  setPrimaryWeb3WalletIfNone,
  web3WalletTaken,
} from '../../store/web3-wallets.ts';
import type { FapiContext } from '../context.ts';

/** Before the user is created: the wallet may have been verified by another account meanwhile. */
export async function assertSignUpWeb3WalletAvailable(ctx: FapiContext, signUp: SignUpRow): Promise<void> {
  if (signUp.web3_wallet && (await web3WalletTaken(ctx.tx, signUp.web3_wallet))) {
    throw errors.identifierExists('web3_wallet');
  }
}

/** The new user's verified wallet (its primary one), in the sign-up's transaction. */
export async function attachSignUpWeb3Wallet(
  ctx: FapiContext,
  userId: string,
  signUp: SignUpRow,
): Promise<void> {
  const verification = signUp.web3_wallet_verification;
  if (!signUp.web3_wallet || verification?.status !== 'verified' || !verification.strategy) return;
  await dropUnverifiedWeb3WalletCopies(ctx.tx, signUp.web3_wallet, userId);
  const wallet = await insertWeb3Wallet(ctx.tx, {
    userId,
    address: signUp.web3_wallet,
    strategy: verification.strategy,
    verifiedAt: ctx.now,
    now: ctx.now,
  }).catch((err: unknown) => {
    if ((err as { code?: string }).code === '23505') throw errors.identifierExists('web3_wallet');
    throw err;
  });
  await setPrimaryWeb3WalletIfNone(ctx.tx, userId, wallet.id);
}
