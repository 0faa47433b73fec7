import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';

/** Mail and SMS kept in the database instead of being sent (development without SMTP or Twilio). */
export type OutboxChannel = 'mail' | 'sms';

export interface OutboxRow {
  recipient: string;
  subject: string | null;
  text_body: string;
  html_body: string | null;
  created_at: Date;
}

export async function insertOutboxMail(
  db: Queryable,
  message: { to: string; subject: string; text: string; html: string },
): Promise<void> {
  await db.query(
    `INSERT INTO outbox (id, channel, recipient, subject, text_body, html_body) VALUES ($1, 'mail', $2, $3, $4, $5)`,
    [newId('msg'), message.to, message.subject, message.text, message.html],
  );
}

export async function insertOutboxSms(db: Queryable, message: { to: string; text: string }): Promise<void> {
  await db.query(
    `INSERT INTO outbox (id, channel, recipient, subject, text_body, html_body) VALUES ($1, 'sms', $2, NULL, $3, NULL)`,
    [newId('msg'), message.to, message.text],
  );
}

/** The newest 200 messages of a channel, all of them or those to one recipient (case ignored). */
export async function listOutbox(
  db: Queryable,
  channel: OutboxChannel,
  to: string | undefined,
): Promise<OutboxRow[]> {
  return db.query<OutboxRow>(
    `SELECT recipient, subject, text_body, html_body, created_at FROM outbox
       WHERE channel = $1 AND ($2::text IS NULL OR lower(recipient) = lower($2))
       ORDER BY created_at DESC LIMIT 200`,
    [channel, to ?? null],
  );
}
