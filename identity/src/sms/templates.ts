import type { MailLanguage } from '../mail/language.ts';
import type { SmsMessage } from './sms-sender.ts';

export type PhoneCodePurpose = 'sign_in' | 'sign_up' | 'verify' | 'second_factor' | 'reset_password';

/** The SMS's words per language (see mail/language.ts for adding one). */
const SMS_TEXTS: Record<
  MailLanguage,
  (input: { code: string; appName: string; reset: boolean; minutes: number }) => string
> = {
  en: ({ code, appName, reset, minutes }) =>
    `${code} is your ${appName} ${reset ? 'password reset code' : 'verification code'}. It expires in ${minutes} minute${minutes === 1 ? '' : 's'}. Do not share it.`,
  fr: ({ code, appName, reset, minutes }) =>
    `${code} est votre ${reset ? 'code de réinitialisation du mot de passe' : 'code de vérification'} ${appName}. Il expire dans ${minutes} minute${minutes === 1 ? '' : 's'}. Ne le communiquez à personne.`,
};

/**
 * One short SMS (well under 160 characters, in GSM letters in both languages: é and à are, ê is not),
 * the code first so phones can offer it for autofill.
 */
export function verificationCodeSms(
  to: string,
  input: {
    code: string;
    appName: string;
    purpose: PhoneCodePurpose;
    ttlSeconds: number;
    language: MailLanguage;
  },
): SmsMessage {
  return {
    to,
    text: SMS_TEXTS[input.language]({
      code: input.code,
      appName: input.appName,
      reset: input.purpose === 'reset_password',
      minutes: Math.max(1, Math.round(input.ttlSeconds / 60)),
    }),
  };
}
