import { errors } from '../../../errors.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';
import { touchUser } from '../../../store/user-profile.ts';
import { insertWeb3Wallet, web3WalletsOfUser, web3WalletTaken } from '../../../store/web3-wallets.ts';
import { parseWeb3Address } from '../../../web3/web3-address.ts';
import { web3WalletJSON } from '../../../web3/web3-wallet-json.ts';
import type { FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { refusedToActors } from '../actor-guard.ts';
import { currentSession } from '../me-session.ts';
import { assertWeb3Enabled } from './own-web3-wallet.ts';
import { formInput } from '../../form-input.ts';

/** Enough for any person; a bound keeps one account from filling the table. */
const MAX_WEB3_WALLETS = 10;

/**
 * POST /me/web3_wallets — `user.createWeb3Wallet({web3Wallet})` (Web3 wallets → Connect wallet). The
 * address starts unverified; the UI then has the wallet sign a nonce. One owned by an account
 * (verified), or already on this one, is `form_identifier_exists`.
 */
export const createWeb3WalletRoute: FapiRoute = refusedToActors({
  method: 'POST',
  path: '/me/web3_wallets',
  auth: 'session',
  permission: null,
  input: { body: formInput({ web3_wallet: 'text' }) },
  rateLimits: (req) => [{ key: `web3_wallet_create:ip:${req.ip}`, limit: 20, windowSeconds: 60 }],
  async handler(ctx) {
    const session = await currentSession(ctx);
    assertWeb3Enabled(ctx);
    await requireReverification(ctx, session);
    const raw = field(ctx.body, 'web3_wallet');
    if (raw === undefined) throw errors.paramMissing('web3_wallet');
    const address = parseWeb3Address(raw, 'web3_wallet');
    const mine = await web3WalletsOfUser(ctx.tx, session.user_id);
    const lower = address.toLowerCase();
    if (mine.some((w) => w.web3_wallet.toLowerCase() === lower) || (await web3WalletTaken(ctx.tx, address))) {
      throw errors.identifierExists('web3_wallet');
    }
    if (mine.length >= MAX_WEB3_WALLETS) {
      throw errors.paramValueInvalid(
        'web3_wallet',
        `An account can have at most ${MAX_WEB3_WALLETS} web3 wallets.`,
      );
    }
    const created = await insertWeb3Wallet(ctx.tx, {
      userId: session.user_id,
      address,
      strategy: null,
      verifiedAt: null,
      now: ctx.now,
    });
    await touchUser(ctx.tx, session.user_id, ctx.now);
    return { response: web3WalletJSON(created) };
  },
});
