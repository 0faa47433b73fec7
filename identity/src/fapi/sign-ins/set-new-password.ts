import { replacePassword, revokeSignedInSessionsOfUser } from '../../store/password-resets.ts';
import type { SignInRow, UserRow } from '../../store/rows.ts';
import { hashNewPassword } from '../prepared-passwords.ts';
import type { FapiContext } from '../context.ts';
import { firstFactorVerified } from './first-factor-verified.ts';

/**
 * A sign-in in `needs_new_password` gets its new password (already checked against the policy): it
 * replaces the old one, clears an operator's reset demand, optionally signs the user out everywhere
 * else, and the sign-in goes on as after any first factor (complete, or the second factor).
 */
export async function setNewPassword(
  ctx: FapiContext,
  signIn: SignInRow,
  user: UserRow,
  password: string,
  opts: { signOutOfOtherSessions: boolean },
): Promise<SignInRow> {
  // Hashed outside the transaction: by the route's beforeTransaction, or asked for now.
  const passwordHash = await hashNewPassword(ctx.prepared, password);
  await replacePassword(ctx.tx, user.id, passwordHash, ctx.now);
  // This browser has no session of its own yet (one signed-in session per browser), so every signed-in
  // session of the user is another one.
  if (opts.signOutOfOtherSessions) await revokeSignedInSessionsOfUser(ctx.tx, user.id, ctx.now);
  return firstFactorVerified(
    ctx,
    signIn,
    { ...user, password_hash: passwordHash, password_reset_required: false },
    signIn.first_factor_verification!,
  );
}
