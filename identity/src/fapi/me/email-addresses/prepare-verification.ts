import { errors } from '../../../errors.ts';
import { findUserById } from '../../../store/users.ts';
import { emailAddressJSON } from '../../../serializers/user.ts';
import { setEmailVerification } from '../../../store/email-addresses.ts';
import type { FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { sendEmailCode } from '../../sign-ins/email-code.ts';
import { emailVerificationSubject } from './verification-subject.ts';
import { ownEmailAddress } from './own-email-address.ts';
import { refusedToActors } from '../actor-guard.ts';
import { formInput } from '../../form-input.ts';

/**
 * POST /me/email_addresses/:id/prepare_verification — emails a code to the new address (on opening the
 * verify step, and "Resend"). The code goes through the outbox and the usual code store: hashed,
 * expiring, single use, attempt-limited.
 */
export const prepareEmailVerificationRoute: FapiRoute = refusedToActors({
  method: 'POST',
  path: '/me/email_addresses/:id/prepare_verification',
  auth: 'session',
  permission: null,
  input: { body: formInput({ strategy: 'enum', redirect_url: 'url' }) },
  rateLimits: (req) => [{ key: `code_send:email_address:${req.params.id}`, limit: 5, windowSeconds: 60 }],
  async handler(ctx) {
    const { session, email } = await ownEmailAddress(ctx);
    const strategy = field(ctx.body, 'strategy');
    if (strategy !== 'email_code') {
      throw errors.paramValueInvalid(
        'strategy',
        `The verification strategy "${strategy ?? ''}" is not enabled for this application.`,
      );
    }
    if (email.verified_at) return { response: emailAddressJSON(email) };
    const verification = await sendEmailCode(ctx, {
      subject: emailVerificationSubject(email),
      email: email.email_address,
      // The mail asks to "verify your email address", as for a sign-up.
      purpose: 'sign_up',
      recipient: await findUserById(ctx.tx, session.user_id),
    });
    return {
      response: emailAddressJSON(await setEmailVerification(ctx.tx, email.id, verification, ctx.now)),
    };
  },
});
