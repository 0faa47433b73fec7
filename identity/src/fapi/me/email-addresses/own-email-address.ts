import { errors } from '../../../errors.ts';
import type { EmailAddressRow, SessionRow } from '../../../store/rows.ts';
import { findOwnEmailAddress } from '../../../store/email-addresses.ts';
import type { FapiContext } from '../../context.ts';
import { currentSession } from '../me-session.ts';

/** The signed-in user's address named by the path (`:id`), locked for the request. */
export async function ownEmailAddress(
  ctx: FapiContext,
): Promise<{ session: SessionRow; email: EmailAddressRow }> {
  const session = await currentSession(ctx);
  const email = await findOwnEmailAddress(ctx.tx, session.user_id, ctx.params.id!);
  if (!email) throw errors.notFound('email address');
  return { session, email };
}
