import { errors } from '../../../errors.ts';
import { deleteEmailAddress, otherVerifiedEmailAddresses } from '../../../store/email-addresses.ts';
import { lockPrimaryEmailAddressId, setPrimaryEmailAddress } from '../../../store/user-profile.ts';
import { deleteCodesOfSubjectPrefix } from '../../../store/verification-codes.ts';
import type { FapiRoute } from '../../context.ts';
import { ownEmailAddress } from './own-email-address.ts';
import { refusedToActors } from '../actor-guard.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';
import { formInput } from '../../form-input.ts';

/**
 * DELETE /me/email_addresses/:id — Email addresses → Remove. The instance requires an email address,
 * and every way to sign in needs one, so the last verified address stays
 * (`identification_deletion_failed`). Removing the primary one makes the oldest other verified
 * address primary.
 */
export const deleteEmailAddressRoute: FapiRoute = refusedToActors({
  method: 'DELETE',
  path: '/me/email_addresses/:id',
  auth: 'session',
  permission: null,
  input: { body: formInput() },
  async handler(ctx) {
    const { session, email } = await ownEmailAddress(ctx);
    await requireReverification(ctx, session);
    const others = await otherVerifiedEmailAddresses(ctx.tx, session.user_id, email.id);
    if (email.verified_at && others.length === 0) throw errors.identificationDeletionFailed();
    const user = await lockPrimaryEmailAddressId(ctx.tx, session.user_id);
    if (user?.primary_email_address_id === email.id) {
      await setPrimaryEmailAddress(ctx.tx, session.user_id, others[0]!.id, ctx.now);
    }
    await deleteEmailAddress(ctx.tx, email.id);
    await deleteCodesOfSubjectPrefix(ctx.tx, `email_address:${email.id}:`);
    return { response: { object: 'email_address', id: email.id, deleted: true } };
  },
});
