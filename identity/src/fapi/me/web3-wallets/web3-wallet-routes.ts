import type { IdentityConfig } from '../../../config.ts';
import type { FapiRoute } from '../../context.ts';
import { web3WalletJSON } from '../../../web3/web3-wallet-json.ts';
import { attemptWeb3WalletVerificationRoute } from './attempt-verification.ts';
import { createWeb3WalletRoute } from './create-web3-wallet.ts';
import { deleteWeb3WalletRoute } from './delete-web3-wallet.ts';
import { ownWeb3Wallet } from './own-web3-wallet.ts';
import { prepareWeb3WalletVerificationRoute } from './prepare-verification.ts';
import { formInput } from '../../form-input.ts';

/** GET /me/web3_wallets/:id — `web3Wallet.reload()`. */
const getWeb3WalletRoute: FapiRoute = {
  method: 'GET',
  path: '/me/web3_wallets/:id',
  auth: 'session',
  permission: null,
  input: { query: formInput() },
  async handler(ctx) {
    const { wallet } = await ownWeb3Wallet(ctx);
    return { response: web3WalletJSON(wallet) };
  },
};

/** The current user's web3 wallets (`/me/web3_wallets` …), as <UserProfile/> manages them. */
export function web3WalletRoutes(config: IdentityConfig): FapiRoute[] {
  return [
    createWeb3WalletRoute,
    getWeb3WalletRoute,
    prepareWeb3WalletVerificationRoute,
    attemptWeb3WalletVerificationRoute(config),
    deleteWeb3WalletRoute,
  ];
}
