import type { SmsMessage } from './sms-sender.ts';

export type PhoneCodePurpose = 'sign_in' | 'sign_up' | 'verify' | 'second_factor' | 'reset_password';

/** One short SMS (well under 160 GSM characters), the code first so phones can offer it for autofill. */
export function verificationCodeSms(
  to: string,
  input: { code: string; appName: string; purpose: PhoneCodePurpose; ttlSeconds: number },
): SmsMessage {
  const what = input.purpose === 'reset_password' ? 'password reset code' : 'verification code';
  const minutes = Math.max(1, Math.round(input.ttlSeconds / 60));
  return {
    to,
    text: `${input.code} is your ${input.appName} ${what}. It expires in ${minutes} minute${minutes === 1 ? '' : 's'}. Do not share it.`,
  };
}
