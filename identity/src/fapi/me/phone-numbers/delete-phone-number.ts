import { removePhoneNumber } from '../../../phone-numbers/phone-removal.ts';
import type { FapiRoute } from '../../context.ts';
import { ownPhoneNumber } from './own-phone-number.ts';
import { refusedToActors } from '../actor-guard.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';
import { formInput } from '../../form-input.ts';

/**
 * DELETE /me/phone_numbers/:id — Phone numbers → Remove, or the number's two-step verification entry;
 * never the last way to sign in (phone-numbers/phone-removal.ts).
 */
export const deletePhoneNumberRoute: FapiRoute = refusedToActors({
  method: 'DELETE',
  path: '/me/phone_numbers/:id',
  auth: 'session',
  permission: null,
  input: { body: formInput() },
  async handler(ctx) {
    const { session, phone } = await ownPhoneNumber(ctx);
    await requireReverification(ctx, session);
    await removePhoneNumber(ctx.tx, session.user_id, phone, ctx.now);
    return { response: { object: 'phone_number', id: phone.id, deleted: true } };
  },
});
