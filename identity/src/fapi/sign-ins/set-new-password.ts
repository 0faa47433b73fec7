import { hashPassword } from '../../crypto/passwords.ts';
import type { SignInRow, UserRow } from '../../store/rows.ts';
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
  const passwordHash = await hashPassword(password);
  await ctx.tx.query(
    `UPDATE users SET password_hash = $2, password_updated_at = $3, password_reset_required = false,
       updated_at = $3 WHERE id = $1`,
    [user.id, passwordHash, ctx.now],
  );
  if (opts.signOutOfOtherSessions) {
    // This browser has no session of its own yet (one signed-in session per browser), so every
    // signed-in session of the user is another one.
    await ctx.tx.query(
      `UPDATE sessions SET status = 'revoked', updated_at = $2 WHERE user_id = $1 AND status IN ('active', 'pending')`,
      [user.id, ctx.now],
    );
  }
  return firstFactorVerified(
    ctx,
    signIn,
    { ...user, password_hash: passwordHash, password_reset_required: false },
    signIn.first_factor_verification!,
  );
}
