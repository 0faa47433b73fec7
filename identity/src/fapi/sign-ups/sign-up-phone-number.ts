import { errors } from '../../errors.ts';
import { dropUnverifiedPhoneCopies, insertPhoneNumber, phoneNumberTaken } from '../../store/phone-numbers.ts';
import type { SignUpRow } from '../../store/rows.ts';
import { setPrimaryPhoneNumber } from '../../store/user-profile.ts';
import type { FapiContext } from '../context.ts';

const UNIQUE_VIOLATION = '23505';

/** Before the user is created: another account may have verified the number since it was typed. */
export async function assertSignUpPhoneAvailable(ctx: FapiContext, signUp: SignUpRow): Promise<void> {
  if (signUp.phone_number && (await phoneNumberTaken(ctx.tx, signUp.phone_number))) {
    throw errors.identifierExists('phone_number');
  }
}

/**
 * The new user's verified number, made primary. Two sign-ups verifying one number at the same moment:
 * the unique index decides and the loser gets `form_identifier_exists`, as if it had come second.
 */
export async function attachSignUpPhoneNumber(
  ctx: FapiContext,
  userId: string,
  signUp: SignUpRow,
): Promise<void> {
  if (!signUp.phone_number || signUp.phone_verification?.status !== 'verified') return;
  const phone = await insertPhoneNumber(ctx.tx, {
    userId,
    phone: signUp.phone_number,
    verifiedAt: ctx.now,
    now: ctx.now,
  }).catch((err: unknown) => {
    if ((err as { code?: string }).code === UNIQUE_VIOLATION) throw errors.identifierExists('phone_number');
    throw err;
  });
  await setPrimaryPhoneNumber(ctx.tx, userId, phone.id);
  await dropUnverifiedPhoneCopies(ctx.tx, phone.phone_number, userId);
}
