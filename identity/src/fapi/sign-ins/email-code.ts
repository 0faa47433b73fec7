import { errors } from '../../errors.ts';
import { verificationCodeMail } from '../../mail/templates.ts';
import type { EmailAddressRow, VerificationState } from '../../store/rows.ts';
import { issueCode } from '../../store/verification-codes.ts';
import { sixDigitCode } from '../../crypto/secrets.ts';
import type { FapiContext } from '../context.ts';
import { isTestEmail, TEST_MODE_CODE } from '../../instance/test-mode.ts';
import { chargeRecipients } from '../../mail/send-limits.ts';
import { requestMailLanguage, type LanguageHolder } from '../../mail/recipient-language.ts';

/**
 * Issues and sends a one-time email code for `subject`. Only its keyed hash is stored; the code itself
 * leaves this function only inside the email. Each mail counts towards the address's sending limit
 * (mail/send-limits.ts); beyond it nothing is issued or sent.
 */
export async function sendEmailCode(
  ctx: FapiContext,
  input: {
    subject: string;
    email: string;
    purpose: 'sign_in' | 'sign_up' | 'reset_password';
    /** The verification's strategy (`reset_password_email_code` for a reset code). */
    strategy?: string;
    /** Whose chosen language the message speaks: the user it is for, or the sign-up (mail/recipient-language.ts). */
    recipient?: LanguageHolder | null;
  },
): Promise<VerificationState> {
  const { config, keys, mailer } = ctx.deps;
  const testMode = config.mode === 'development' && isTestEmail(input.email);
  if (!testMode) await chargeRecipients(ctx.tx, config.sendLimits, 'mail', [input.email], ctx.now);
  const code = testMode ? TEST_MODE_CODE : sixDigitCode();
  const expireAt = await issueCode(ctx.tx, {
    subject: input.subject,
    code,
    pepper: keys.codePepper,
    ttlSeconds: config.codeTtlSeconds,
    now: ctx.now,
  });
  if (!testMode)
    await mailer.send(
      ctx.tx,
      verificationCodeMail(input.email, {
        code,
        appName: config.applicationName,
        purpose: input.purpose,
        ttlSeconds: config.codeTtlSeconds,
        language: requestMailLanguage(config, ctx.acceptLanguage, input.recipient),
      }),
    );
  return {
    status: 'unverified',
    strategy: input.strategy ?? 'email_code',
    attempts: 0,
    expire_at: expireAt.getTime(),
  };
}

export function emailOf(
  emails: EmailAddressRow[],
  id: string | undefined,
  fallbackPrimaryId: string | null,
): EmailAddressRow {
  const chosen = emails.find((e) => e.id === (id ?? fallbackPrimaryId) && e.verified_at);
  if (!chosen)
    throw errors.paramValueInvalid('email_address_id', 'email_address_id does not belong to this account.');
  return chosen;
}
