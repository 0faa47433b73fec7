import { errors } from '../../../errors.ts';
import { findOwnPhoneNumber, type PhoneNumberRow } from '../../../store/phone-numbers.ts';
import type { SessionRow } from '../../../store/rows.ts';
import type { FapiContext } from '../../context.ts';
import { currentSession } from '../me-session.ts';

/** The signed-in user's number named by the path (`:id`), locked for the request. */
export async function ownPhoneNumber(
  ctx: FapiContext,
): Promise<{ session: SessionRow; phone: PhoneNumberRow }> {
  const session = await currentSession(ctx);
  const phone = await findOwnPhoneNumber(ctx.tx, session.user_id, ctx.params.id!);
  if (!phone) throw errors.notFound('phone number');
  return { session, phone };
}

/** The code store's subject for verifying one number added from the profile. */
export function phoneVerificationSubject(phone: Pick<PhoneNumberRow, 'id' | 'phone_number'>): string {
  return `phone_number:${phone.id}:${phone.phone_number}`;
}
