import type { IdentityConfig } from '../../../config.ts';
import { errors } from '../../../errors.ts';
import { touchUser } from '../../../store/user-profile.ts';
import {
  dropUnverifiedWeb3WalletCopies,
  markWeb3WalletVerified,
  setPrimaryWeb3WalletIfNone,
  setWeb3WalletVerification,
  web3WalletTaken,
} from '../../../store/web3-wallets.ts';
import { checkWeb3Signature } from '../../../web3/web3-signature.ts';
import { web3WalletJSON } from '../../../web3/web3-wallet-json.ts';
import type { FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { codeAttemptLimits } from '../../sign-ins/rate-limits.ts';
import { refusedToActors } from '../actor-guard.ts';
import { ownWeb3Wallet } from './own-web3-wallet.ts';
import { formInput } from '../../form-input.ts';

const UNIQUE_VIOLATION = '23505';

/**
 * POST /me/web3_wallets/:id/attempt_verification `{signature}` — the wallet's signature of its nonce.
 * Right: the wallet is verified (it can sign in; the first one becomes the primary wallet). Wrong: the
 * nonce is spent. If another account verified the address meanwhile, it stays theirs.
 */
export const attemptWeb3WalletVerificationRoute = (config: IdentityConfig): FapiRoute =>
  refusedToActors({
    method: 'POST',
    path: '/me/web3_wallets/:id/attempt_verification',
    auth: 'session',
    permission: null,
    input: { body: formInput({ signature: 'text' }) },
    rateLimits: codeAttemptLimits(config),
    async handler(ctx) {
      const { session, wallet } = await ownWeb3Wallet(ctx);
      if (wallet.verified_at) return { response: web3WalletJSON(wallet) };
      const prepared = wallet.verification;
      if (!prepared?.strategy || !wallet.strategy) throw errors.verificationNotPrepared();
      const check = await checkWeb3Signature({
        prepared,
        strategy: wallet.strategy,
        signature: field(ctx.body, 'signature'),
        address: wallet.web3_wallet,
        now: ctx.now,
      });
      if (!check.ok) {
        if (check.verification) {
          await setWeb3WalletVerification(ctx.tx, wallet.id, wallet.strategy, check.verification, ctx.now);
        }
        return { error: check.error };
      }
      if (await web3WalletTaken(ctx.tx, wallet.web3_wallet)) throw errors.identifierExists('web3_wallet');
      const verified = await markWeb3WalletVerified(ctx.tx, wallet.id, ctx.now).catch((err: unknown) => {
        if ((err as { code?: string }).code === UNIQUE_VIOLATION)
          throw errors.identifierExists('web3_wallet');
        throw err;
      });
      await dropUnverifiedWeb3WalletCopies(ctx.tx, verified.web3_wallet, session.user_id);
      await setPrimaryWeb3WalletIfNone(ctx.tx, session.user_id, verified.id);
      await touchUser(ctx.tx, session.user_id, ctx.now);
      return { response: web3WalletJSON(verified) };
    },
  });
