export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: string;
}

export interface OutboxSms {
  to: string;
  text: string;
  created_at: string;
}

const CODE = /\b(\d{6})\b/;
const EMAIL_LINK = /https?:\/\/\S+\/v1\/verify\?token=\S+/;
const INVITATION_LINK = /https?:\/\/\S+\/v1\/tickets\/accept\?ticket=[\w-]+/;

/**
 * Polls a development outbox (`/__dev/mail` or `/__dev/sms`) for the newest message to `to` created after
 * `since` whose text matches `pattern`, and returns the match (its first group when it has one).
 */
async function waitForOutbox(
  url: string,
  since: Date,
  pattern: RegExp,
  timeoutMs: number,
  what: string,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const messages = (await (await fetch(url)).json()) as { text: string; created_at: string }[];
    const message = messages.find((m) => new Date(m.created_at) >= since);
    const match = message?.text.match(pattern);
    if (match) return match[1] ?? match[0];
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no ${what} within ${timeoutMs} ms`);
}

const mailUrl = (origin: string, to: string) => `${origin}/__dev/mail?to=${encodeURIComponent(to)}`;

/** Waits for the newest mail to `to` created after `since`, and returns its 6-digit code. */
export function waitForCode(origin: string, to: string, since: Date, timeoutMs = 10_000): Promise<string> {
  return waitForOutbox(mailUrl(origin, to), since, CODE, timeoutMs, `verification code mailed to ${to}`);
}

export async function mailCount(origin: string, to: string): Promise<number> {
  return ((await (await fetch(mailUrl(origin, to))).json()) as OutboxMail[]).length;
}

/** Waits for the newest mail to `to` created after `since` that carries an email link, and returns the link. */
export function waitForLink(origin: string, to: string, since: Date, timeoutMs = 10_000): Promise<string> {
  return waitForOutbox(mailUrl(origin, to), since, EMAIL_LINK, timeoutMs, `email link mailed to ${to}`);
}

/** Waits for the newest mail to `to` created after `since` that carries an invitation link, and returns it. */
export function waitForInvitationLink(
  origin: string,
  to: string,
  since: Date,
  timeoutMs = 10_000,
): Promise<string> {
  return waitForOutbox(mailUrl(origin, to), since, INVITATION_LINK, timeoutMs, `invitation mailed to ${to}`);
}

/** Waits for the newest SMS to `to` (E.164) sent after `since` in `/__dev/sms`, and returns its 6-digit code. */
export function waitForSmsCode(origin: string, to: string, since: Date, timeoutMs = 10_000): Promise<string> {
  const url = `${origin}/__dev/sms?to=${encodeURIComponent(to)}`;
  return waitForOutbox(url, since, CODE, timeoutMs, `code texted to ${to}`);
}
