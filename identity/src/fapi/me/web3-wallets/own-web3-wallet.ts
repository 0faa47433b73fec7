import { errors } from '../../../errors.ts';
import type { SessionRow } from '../../../store/rows.ts';
import { findOwnWeb3Wallet, type Web3WalletRow } from '../../../store/web3-wallets.ts';
import { web3Enabled } from '../../../web3/web3-strategies.ts';
import type { FapiContext } from '../../context.ts';
import { currentSession } from '../me-session.ts';

/** Refused as an unknown route's resource would be when the instance offers no wallet. */
export function assertWeb3Enabled(ctx: FapiContext): void {
  if (!web3Enabled(ctx.deps.settings.settings)) {
    throw errors.paramValueInvalid('web3_wallet', 'web3 wallet is not enabled for this application.');
  }
}

/** The signed-in user's wallet named by the path (`:id`), locked for the request. */
export async function ownWeb3Wallet(
  ctx: FapiContext,
): Promise<{ session: SessionRow; wallet: Web3WalletRow }> {
  const session = await currentSession(ctx);
  const wallet = await findOwnWeb3Wallet(ctx.tx, session.user_id, ctx.params.id!);
  if (!wallet) throw errors.notFound('web3 wallet');
  return { session, wallet };
}
