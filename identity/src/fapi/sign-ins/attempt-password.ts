import { checkPassword, hashNewPassword } from '../prepared-passwords.ts';
import { needsRehash } from '../../crypto/passwords.ts';
import { upgradePasswordHash } from '../../store/user-profile.ts';
import { errors } from '../../errors.ts';
import type { SignInRow } from '../../store/rows.ts';
import type { Owner } from '../../users/load-users.ts';
import { assertMayAttempt, countFailedAttempt } from '../../abuse/attempt-gate.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { firstFactorVerified } from './first-factor-verified.ts';
import { signInResponse } from './respond.ts';
import { saveSignIn } from '../../store/sign-ins.ts';
import { demandCaptchaOnAttackedAccount } from '../captcha/sign-in-captcha.ts';

export async function attemptPassword(
  ctx: FapiContext,
  signIn: SignInRow,
  account: Owner,
  password: string,
): Promise<FapiResult> {
  // Nothing below changes what the account's JSON embeds (the lockout columns are patched at settle).
  const user = account.user;
  if (!user.password_hash) throw errors.strategyForUserInvalid();
  await demandCaptchaOnAttackedAccount(ctx, user);
  await assertMayAttempt(ctx, user);
  if (!(await checkPassword(ctx.prepared, user.password_hash, password))) {
    await countFailedAttempt(ctx, user.id);
    return { error: errors.passwordIncorrect() };
  }
  // An imported digest (another system's scheme) is replaced by our argon2id on its first right password.
  if (needsRehash(user.password_hash)) {
    await upgradePasswordHash(
      ctx.tx,
      user.id,
      user.password_hash,
      await hashNewPassword(ctx.prepared, password),
    );
  }
  const verification = { status: 'verified', strategy: 'password', attempts: null, expire_at: null } as const;
  if (user.password_reset_required) {
    // The operator wants this password replaced: right, but it opens no session until a new one is set.
    const waiting = await saveSignIn(
      ctx.tx,
      signIn,
      { status: 'needs_new_password', first_factor_verification: verification },
      ctx.now,
    );
    return signInResponse(ctx, waiting, account);
  }
  const done = await firstFactorVerified(ctx, signIn, user, verification, account.secondFactors);
  return signInResponse(ctx, done, account);
}
