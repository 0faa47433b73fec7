import { isTrustedBrowser } from '../../abuse/attempt-gate.ts';
import { captchaInForce, demandCaptchaPass } from './captcha-check.ts';
import type { UserRow } from '../../store/rows.ts';
import type { FapiContext } from '../context.ts';

/**
 * Before a password of an account under attack is checked (failures in a row past the captcha's
 * threshold, below the progressive delay and the lockout): a browser that is not the owner's known one
 * must solve the captcha modal for each try (`requires_captcha`). A script guessing from many addresses then
 * pays a proof of work or a Turnstile challenge per guess, and the owner signs in as before.
 */
export async function demandCaptchaOnAttackedAccount(
  ctx: FapiContext,
  user: Pick<UserRow, 'id' | 'failed_verification_attempts'>,
): Promise<void> {
  const captcha = captchaInForce(ctx.deps, ctx);
  if (!captcha || user.failed_verification_attempts < captcha.challenge.signInFailuresBeforeCaptcha) return;
  if (await isTrustedBrowser(ctx, user.id)) return;
  await demandCaptchaPass(ctx);
}
