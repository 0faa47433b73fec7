import type { Queryable } from '../db/database.ts';
import { insertOutboxSms } from '../store/outbox.ts';

export interface SmsMessage {
  /** E.164, e.g. +12015550123. */
  to: string;
  text: string;
}

/**
 * The SMS provider could not take the message. The request fails (503, or 422 when the provider refused
 * the recipient) and its transaction rolls back, so no code is left waiting that was never sent.
 * `message` is for the operator's log: it never holds the text (the code) nor a credential.
 */
export class SmsUnavailableError extends Error {
  override readonly name = 'SmsUnavailableError';
  constructor(
    message: string,
    /** The provider refused this recipient (not a number that can receive SMS), as opposed to failing. */
    readonly recipientRejected = false,
  ) {
    super(message);
  }
}

/** Where one-time codes by SMS go: a real provider, or the development outbox in the database. */
export interface SmsSender {
  readonly kind: 'outbox' | 'twilio';
  send(db: Queryable, message: SmsMessage): Promise<void>;
}

/** Development: the message is kept in the outbox (`GET /__dev/sms`) instead of being sent. */
export function outboxSmsSender(): SmsSender {
  return {
    kind: 'outbox',
    async send(db, message) {
      await insertOutboxSms(db, message);
    },
  };
}
