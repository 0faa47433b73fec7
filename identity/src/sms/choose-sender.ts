import type { IdentityConfig } from '../config.ts';
import { outboxSmsSender, type SmsSender } from './sms-sender.ts';
import { twilioSmsSender } from './twilio.ts';

/**
 * Twilio when configured (in either mode); otherwise the development outbox, and in production nothing:
 * phone numbers are then switched off rather than accepted with no way to reach them.
 */
export function smsSenderFor(config: Pick<IdentityConfig, 'mode' | 'sms'>): SmsSender | null {
  if (config.sms.twilio) return twilioSmsSender(config.sms.twilio);
  return config.mode === 'development' ? outboxSmsSender() : null;
}

/** Whether the instance offers phone numbers (sign-up field, identifier, SMS second factor). */
export function phoneNumbersEnabled(config: Pick<IdentityConfig, 'mode' | 'sms'>): boolean {
  return config.sms.twilio !== null || config.mode === 'development';
}
