import { errors } from '../../../errors.ts';
import { emailAddressJSON } from '../../../serializers/user.ts';
import { emailAddressesOfUser, insertUnverifiedEmailAddress } from '../../../store/email-addresses.ts';
import { emailAddressTaken } from '../../../store/users.ts';
import type { FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { validateEmail } from '../../sign-ups/validate.ts';
import { currentSession } from '../me-session.ts';
import { refusedToActors } from '../actor-guard.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';
import { formInput } from '../../form-input.ts';

/** Enough for any person; a bound keeps one account from filling the table. */
const MAX_EMAIL_ADDRESSES = 20;

/**
 * POST /me/email_addresses — `user.createEmailAddress({email})` (Email addresses → Add). The address
 * starts unverified; the UI then asks for a code (prepare_verification). One already owned by an
 * account (verified), or already on this one, is `form_identifier_exists`.
 */
export const createEmailAddressRoute: FapiRoute = refusedToActors({
  method: 'POST',
  path: '/me/email_addresses',
  auth: 'session',
  permission: null,
  input: { body: formInput({ email_address: 'email' }) },
  rateLimits: (req) => [{ key: `email_address_create:ip:${req.ip}`, limit: 20, windowSeconds: 60 }],
  async handler(ctx) {
    const session = await currentSession(ctx);
    await requireReverification(ctx, session);
    const raw = field(ctx.body, 'email_address');
    if (raw === undefined) throw errors.paramMissing('email_address');
    const email = validateEmail(raw);
    const mine = await emailAddressesOfUser(ctx.tx, session.user_id);
    if (
      mine.some((e) => e.email_address.toLowerCase() === email) ||
      (await emailAddressTaken(ctx.tx, email))
    ) {
      throw errors.identifierExists('email_address');
    }
    if (mine.length >= MAX_EMAIL_ADDRESSES) {
      throw errors.paramValueInvalid(
        'email_address',
        `An account can have at most ${MAX_EMAIL_ADDRESSES} email addresses.`,
      );
    }
    const created = await insertUnverifiedEmailAddress(ctx.tx, session.user_id, email, ctx.now);
    return { response: emailAddressJSON(created) };
  },
});
