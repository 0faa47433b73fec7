import { errors } from '../../../errors.ts';
import { signInPhoneNumbers } from '../../../phone-numbers/phone-factors.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';
import { phoneNumbersOfUser } from '../../../store/phone-numbers.ts';
import { touchUser } from '../../../store/user-profile.ts';
import { emailAddressesOf, findUserById } from '../../../store/users.ts';
import { deleteWeb3Wallet, web3WalletsOfUser } from '../../../store/web3-wallets.ts';
import type { FapiRoute } from '../../context.ts';
import { refusedToActors } from '../actor-guard.ts';
import { ownWeb3Wallet } from './own-web3-wallet.ts';
import { formInput } from '../../form-input.ts';

/**
 * DELETE /me/web3_wallets/:id — Web3 wallets → Remove. Never the last way to sign in: a wallet goes only
 * while a verified email address, a sign-in phone number, a username with a password or another
 * verified wallet remains (`identification_deletion_failed`). The primary role passes to another wallet.
 */
export const deleteWeb3WalletRoute: FapiRoute = refusedToActors({
  method: 'DELETE',
  path: '/me/web3_wallets/:id',
  auth: 'session',
  permission: null,
  input: { body: formInput() },
  async handler(ctx) {
    const { session, wallet } = await ownWeb3Wallet(ctx);
    await requireReverification(ctx, session);
    const userId = session.user_id;
    if (wallet.verified_at) {
      const user = (await findUserById(ctx.tx, userId))!;
      const emails = (await emailAddressesOf(ctx.tx, [userId])).get(userId) ?? [];
      const remains =
        emails.some((e) => e.verified_at) ||
        signInPhoneNumbers(await phoneNumbersOfUser(ctx.tx, userId)).length > 0 ||
        (!!user.username && !!user.password_hash) ||
        (await web3WalletsOfUser(ctx.tx, userId)).some((w) => w.verified_at && w.id !== wallet.id);
      if (!remains) throw errors.identificationDeletionFailed();
    }
    await deleteWeb3Wallet(ctx.tx, userId, wallet.id, ctx.now);
    await touchUser(ctx.tx, userId, ctx.now);
    return { response: { object: 'web3_wallet', id: wallet.id, deleted: true } };
  },
});
