import { sixDigitCode } from '../../crypto/secrets.ts';
import { isTestPhoneNumber, TEST_MODE_CODE } from '../../instance/test-mode.ts';
import { verificationCodeSms, type PhoneCodePurpose } from '../../sms/templates.ts';
import { chargeSends, recipientRules } from '../../mail/send-limits.ts';
import { requestMailLanguage, type LanguageHolder } from '../../mail/recipient-language.ts';
import type { VerificationState } from '../../store/rows.ts';
import { issueCode } from '../../store/verification-codes.ts';
import type { FapiContext } from '../context.ts';
import { phoneNumbersDisabled } from './phone-numbers-enabled.ts';

/**
 * Every SMS costs money and can be abused to pump messages to premium numbers, so besides each route's
 * per-attempt limit, sending is limited per number (the per-recipient limit mail shares,
 * mail/send-limits.ts) and per client IP (counted in the database, shared by every instance).
 */
export const SMS_PER_IP = { limit: 30, windowSeconds: 3600 } as const;

/**
 * Issues and sends a one-time code by SMS for `subject`. Only its keyed hash is stored; the code leaves
 * this function only inside the SMS. Clerk's test numbers (development only) receive nothing and take
 * 424242, and do not count towards the sending limits.
 */
export async function sendPhoneCode(
  ctx: FapiContext,
  input: {
    subject: string;
    /** E.164. */
    phone: string;
    purpose: PhoneCodePurpose;
    /** The verification's strategy (`reset_password_phone_code` for a reset code). */
    strategy?: string;
    /** Whose chosen language the message speaks: the user it is for, or the sign-up (mail/recipient-language.ts). */
    recipient?: LanguageHolder | null;
  },
): Promise<VerificationState> {
  const { config, keys, sms } = ctx.deps;
  const testMode = config.mode === 'development' && isTestPhoneNumber(input.phone);
  const sender = testMode ? null : sms;
  if (!testMode) {
    if (!sender) throw phoneNumbersDisabled();
    await chargeSends(
      ctx.tx,
      [...recipientRules(config.sendLimits, 'sms', input.phone), { key: `sms:ip:${ctx.ip}`, ...SMS_PER_IP }],
      ctx.now,
    );
  }
  const code = testMode ? TEST_MODE_CODE : sixDigitCode();
  const expireAt = await issueCode(ctx.tx, {
    subject: input.subject,
    code,
    pepper: keys.codePepper,
    ttlSeconds: config.codeTtlSeconds,
    now: ctx.now,
  });
  if (sender) {
    const message = verificationCodeSms(input.phone, {
      code,
      appName: config.applicationName,
      purpose: input.purpose,
      ttlSeconds: config.codeTtlSeconds,
      language: requestMailLanguage(config, ctx.acceptLanguage, input.recipient),
    });
    await sender.send(ctx.tx, message);
  }
  return {
    status: 'unverified',
    strategy: input.strategy ?? 'phone_code',
    attempts: 0,
    expire_at: expireAt.getTime(),
  };
}
