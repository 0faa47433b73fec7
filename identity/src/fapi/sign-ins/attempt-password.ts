import { verifyPassword } from '../../crypto/passwords.ts';
import { errors } from '../../errors.ts';
import type { SignInRow, UserRow } from '../../store/rows.ts';
import { recordFailedVerification } from '../../store/users.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { firstFactorVerified } from './first-factor-verified.ts';
import { signInResponse } from './respond.ts';

export async function attemptPassword(
  ctx: FapiContext,
  signIn: SignInRow,
  user: UserRow,
  password: string,
): Promise<FapiResult> {
  if (!user.password_hash) throw errors.strategyForUserInvalid();
  if (!(await verifyPassword(user.password_hash, password))) {
    await recordFailedVerification(ctx.tx, user.id, ctx.deps.config.lockout, ctx.now);
    return { error: errors.passwordIncorrect() };
  }
  const done = await firstFactorVerified(ctx, signIn, user, {
    status: 'verified',
    strategy: 'password',
    attempts: null,
    expire_at: null,
  });
  return signInResponse(ctx, done);
}
