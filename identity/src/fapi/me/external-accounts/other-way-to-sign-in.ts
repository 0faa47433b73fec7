import { signInPhoneNumbers } from '../../../phone-numbers/phone-factors.ts';
import { enabledSocialProvider } from '../../../social/providers.ts';
import { externalAccountsOf } from '../../../store/external-accounts.ts';
import { phoneNumbersOfUser } from '../../../store/phone-numbers.ts';
import { emailAddressesOf, findUserById } from '../../../store/users.ts';
import type { FapiContext } from '../../context.ts';

/**
 * Whether the user can still sign in once their external account `accountId` is gone: with a code sent
 * to a verified email address (a first factor this instance always offers), a sign-in phone number, a
 * username with a password, or another verified external account of a provider that may sign in. The
 * same ways the phone number and email address routes keep (`identification_deletion_failed`).
 */
export async function otherWayToSignIn(
  ctx: FapiContext,
  userId: string,
  accountId: string,
): Promise<boolean> {
  const emails = (await emailAddressesOf(ctx.tx, [userId])).get(userId) ?? [];
  if (emails.some((e) => e.verified_at)) return true;
  if (signInPhoneNumbers(await phoneNumbersOfUser(ctx.tx, userId)).length > 0) return true;
  const user = await findUserById(ctx.tx, userId);
  if (user?.username && user.password_hash) return true;
  const social = ctx.deps.settings.settings.social;
  return (await externalAccountsOf(ctx.tx, [userId])).some(
    (x) =>
      x.id !== accountId &&
      x.verification_status === 'verified' &&
      enabledSocialProvider(social, x.provider)?.authenticatable === true,
  );
}
