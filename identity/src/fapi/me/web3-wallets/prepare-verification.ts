import { errors } from '../../../errors.ts';
import { setWeb3WalletVerification } from '../../../store/web3-wallets.ts';
import { newWeb3Verification } from '../../../web3/web3-signature.ts';
import { web3StrategyEnabled } from '../../../web3/web3-strategies.ts';
import { web3WalletJSON } from '../../../web3/web3-wallet-json.ts';
import type { FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { refusedToActors } from '../actor-guard.ts';
import { ownWeb3Wallet } from './own-web3-wallet.ts';
import { formInput } from '../../form-input.ts';

/**
 * POST /me/web3_wallets/:id/prepare_verification `{strategy}` — a fresh nonce for the wallet to sign
 * (`verification.message`), replacing any earlier one; the strategy names the wallet app.
 */
export const prepareWeb3WalletVerificationRoute: FapiRoute = refusedToActors({
  method: 'POST',
  path: '/me/web3_wallets/:id/prepare_verification',
  auth: 'session',
  permission: null,
  input: { body: formInput({ strategy: 'enum' }) },
  rateLimits: (req) => [{ key: `web3_nonce:web3_wallet:${req.params.id}`, limit: 10, windowSeconds: 60 }],
  async handler(ctx) {
    const { wallet } = await ownWeb3Wallet(ctx);
    const strategy = field(ctx.body, 'strategy');
    if (!web3StrategyEnabled(ctx.deps.settings.settings, strategy)) {
      throw errors.paramValueInvalid(
        'strategy',
        `The verification strategy "${strategy ?? ''}" is not enabled for this application.`,
      );
    }
    if (wallet.verified_at) return { response: web3WalletJSON(wallet) };
    const verification = newWeb3Verification(strategy, ctx.now);
    return {
      response: web3WalletJSON(
        await setWeb3WalletVerification(ctx.tx, wallet.id, strategy, verification, ctx.now),
      ),
    };
  },
});
