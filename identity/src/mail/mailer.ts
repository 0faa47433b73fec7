import nodemailer from 'nodemailer';
import type { Queryable } from '../db/database.ts';
import { insertOutboxMail } from '../store/outbox.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The mail server could not take the message: the request fails as 503 and its transaction rolls back. */
export class MailUnavailableError extends Error {
  override readonly name = 'MailUnavailableError';
}

/** Where outgoing mail goes: a real SMTP server, or the development outbox in the database. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(db: Queryable, message: MailMessage): Promise<void>;
}

export function outboxMailer(): Mailer {
  return {
    kind: 'outbox',
    async send(db, message) {
      await insertOutboxMail(db, message);
    },
  };
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(_db, message) {
      try {
        await transport.sendMail({ from, ...message });
      } catch (err) {
        throw new MailUnavailableError((err as Error).message);
      }
    },
  };
}
