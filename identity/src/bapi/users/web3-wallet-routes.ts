import { deleteWeb3Wallet, findOwnWeb3Wallet } from '../../store/web3-wallets.ts';
import type { BapiRoute } from '../route.ts';
import { deleteUserResourceRoute } from './delete-user-resource.ts';

/**
 * Backend API: `users.deleteUserWeb3Wallet({userId, web3WalletIdentificationId})` (@clerk/backend 2.10.1)
 * → DELETE /v1/users/:id/web3_wallets/:web3WalletId: DeletedObject. Another user's wallet is 404, as one
 * that does not exist. The operator may remove the last one (Clerk's Backend API does not refuse it).
 */
export const web3WalletBapiRoutes: BapiRoute[] = [
  deleteUserResourceRoute({
    path: '/v1/users/:id/web3_wallets/:resourceId',
    object: 'web3_wallet',
    noun: 'web3 wallet',
    find: findOwnWeb3Wallet,
    remove: deleteWeb3Wallet,
  }),
];
