import type { IdentityConfig } from '../../../config.ts';
import { errors } from '../../../errors.ts';
import { emailAddressJSON } from '../../../serializers/user.ts';
import { markEmailVerified, setEmailVerification } from '../../../store/email-addresses.ts';
import { dropUnverifiedCopies, emailAddressTaken } from '../../../store/users.ts';
import { attemptCode } from '../../code-attempt.ts';
import type { FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { codeAttemptLimits } from '../../sign-ins/rate-limits.ts';
import { ownEmailAddress } from './own-email-address.ts';
import { emailVerificationSubject } from './verification-subject.ts';
import { refusedToActors } from '../actor-guard.ts';
import { setPrimaryEmailAddressIfNone } from '../../../store/user-profile.ts';
import { formInput } from '../../form-input.ts';

const UNIQUE_VIOLATION = '23505';

/**
 * POST /me/email_addresses/:id/attempt_verification — the emailed code. A right code verifies the
 * address (it can then be made primary and used to sign in); wrong ones count like every other code.
 * If another account verified the same address meanwhile, it stays theirs: `form_identifier_exists`.
 */
export const attemptEmailVerificationRoute = (config: IdentityConfig): FapiRoute =>
  refusedToActors({
    method: 'POST',
    path: '/me/email_addresses/:id/attempt_verification',
    auth: 'session',
    permission: null,
    input: { body: formInput({ code: 'code' }) },
    rateLimits: codeAttemptLimits(config),
    async handler(ctx) {
      const { email } = await ownEmailAddress(ctx);
      if (email.verified_at) return { response: emailAddressJSON(email) };
      const code = field(ctx.body, 'code');
      if (!code) throw errors.paramMissing('code');
      const prepared = email.verification;
      if (prepared?.strategy !== 'email_code') throw errors.verificationNotPrepared();

      const attempt = await attemptCode(ctx, { subject: emailVerificationSubject(email), code, prepared });
      if (!attempt.ok) {
        await setEmailVerification(ctx.tx, email.id, attempt.verification, ctx.now);
        return { error: attempt.error };
      }
      if (await emailAddressTaken(ctx.tx, email.email_address))
        throw errors.identifierExists('email_address');
      const verified = await markEmailVerified(ctx.tx, email.id, 'email_code', ctx.now).catch(
        (err: unknown) => {
          if ((err as { code?: string }).code === UNIQUE_VIOLATION)
            throw errors.identifierExists('email_address');
          throw err;
        },
      );
      await dropUnverifiedCopies(ctx.tx, verified.email_address, verified.user_id);
      await setPrimaryEmailAddressIfNone(ctx.tx, verified.user_id, verified.id);
      return { response: emailAddressJSON(verified) };
    },
  });
