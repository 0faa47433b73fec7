import { errors } from '../../../errors.ts';
import { validatePhoneNumber } from '../../../phone-numbers/phone-number.ts';
import { phoneNumberJSON } from '../../../serializers/phone-number.ts';
import { insertPhoneNumber, phoneNumbersOfUser, phoneNumberTaken } from '../../../store/phone-numbers.ts';
import { touchUser } from '../../../store/user-profile.ts';
import type { FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { assertPhoneNumbersEnabled } from '../../phone-numbers/phone-numbers-enabled.ts';
import { currentSession } from '../me-session.ts';
import { refusedToActors } from '../actor-guard.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';
import { formInput } from '../../form-input.ts';

/** Enough for any person; a bound keeps one account from filling the table. */
const MAX_PHONE_NUMBERS = 10;

/**
 * POST /me/phone_numbers — `user.createPhoneNumber({phoneNumber})` (Phone numbers → Add, and the SMS
 * two-step setup). The number is normalised to E.164 and starts unverified; the UI then asks for a code.
 * One owned by an account (verified), or already on this one, is `form_identifier_exists`.
 */
export const createPhoneNumberRoute: FapiRoute = refusedToActors({
  method: 'POST',
  path: '/me/phone_numbers',
  auth: 'session',
  permission: null,
  input: { body: formInput({ phone_number: 'phone' }) },
  rateLimits: (req) => [{ key: `phone_number_create:ip:${req.ip}`, limit: 20, windowSeconds: 60 }],
  async handler(ctx) {
    assertPhoneNumbersEnabled(ctx.deps);
    const session = await currentSession(ctx);
    await requireReverification(ctx, session);
    const raw = field(ctx.body, 'phone_number');
    if (raw === undefined) throw errors.paramMissing('phone_number');
    const phone = validatePhoneNumber(raw, { testMode: ctx.deps.config.mode === 'development' });
    const mine = await phoneNumbersOfUser(ctx.tx, session.user_id);
    if (mine.some((p) => p.phone_number === phone) || (await phoneNumberTaken(ctx.tx, phone))) {
      throw errors.identifierExists('phone_number');
    }
    if (mine.length >= MAX_PHONE_NUMBERS) {
      throw errors.paramValueInvalid(
        'phone_number',
        `An account can have at most ${MAX_PHONE_NUMBERS} phone numbers.`,
      );
    }
    const created = await insertPhoneNumber(ctx.tx, {
      userId: session.user_id,
      phone,
      verifiedAt: null,
      now: ctx.now,
    });
    await touchUser(ctx.tx, session.user_id, ctx.now);
    return { response: phoneNumberJSON(created) };
  },
});
