import { errors } from '../../errors.ts';
import { touchUser } from '../../store/user-profile.ts';
import { findUserById } from '../../store/users.ts';
import { deleteWeb3Wallet, findOwnWeb3Wallet } from '../../store/web3-wallets.ts';
import type { BapiRoute } from '../route.ts';

/**
 * Backend API: `users.deleteUserWeb3Wallet({userId, web3WalletIdentificationId})` (@clerk/backend 2.10.1)
 * → DELETE /v1/users/:id/web3_wallets/:web3WalletId: DeletedObject. Another user's wallet is 404, as one
 * that does not exist. The operator may remove the last one (Clerk's Backend API does not refuse it).
 */
export const web3WalletBapiRoutes: BapiRoute[] = [
  {
    method: 'DELETE',
    path: '/v1/users/:id/web3_wallets/:web3WalletId',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const userId = req.params.id!;
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        if (!(await findUserById(tx, userId))) throw errors.notFound('user');
        const wallet = await findOwnWeb3Wallet(tx, userId, req.params.web3WalletId!);
        if (!wallet) throw errors.notFound('web3 wallet');
        await deleteWeb3Wallet(tx, userId, wallet.id, now);
        await touchUser(tx, userId, now);
        return { object: 'web3_wallet', id: wallet.id, deleted: true };
      });
    },
  },
];
