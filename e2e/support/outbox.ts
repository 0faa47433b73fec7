export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: string;
}

/** Waits for the newest mail to `to` created after `since`, and returns its 6-digit code. */
export async function waitForCode(
  origin: string,
  to: string,
  since: Date,
  timeoutMs = 10_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${origin}/__dev/mail?to=${encodeURIComponent(to)}`);
    const mails = (await res.json()) as OutboxMail[];
    const mail = mails.find((m) => new Date(m.created_at) >= since);
    const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no verification code mailed to ${to} within ${timeoutMs} ms`);
}

export async function mailCount(origin: string, to: string): Promise<number> {
  const res = await fetch(`${origin}/__dev/mail?to=${encodeURIComponent(to)}`);
  return ((await res.json()) as OutboxMail[]).length;
}

/** Waits for the newest mail to `to` created after `since` that carries an email link, and returns the link. */
export async function waitForLink(
  origin: string,
  to: string,
  since: Date,
  timeoutMs = 10_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${origin}/__dev/mail?to=${encodeURIComponent(to)}`);
    const mails = (await res.json()) as OutboxMail[];
    const mail = mails.find((m) => new Date(m.created_at) >= since);
    const link = mail?.text.match(/https?:\/\/\S+\/v1\/verify\?token=\S+/)?.[0];
    if (link) return link;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no email link mailed to ${to} within ${timeoutMs} ms`);
}

export interface OutboxSms {
  to: string;
  text: string;
  created_at: string;
}

/** Waits for the newest SMS to `to` (E.164) sent after `since` in `/__dev/sms`, and returns its 6-digit code. */
export async function waitForSmsCode(
  origin: string,
  to: string,
  since: Date,
  timeoutMs = 10_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${origin}/__dev/sms?to=${encodeURIComponent(to)}`);
    const messages = (await res.json()) as OutboxSms[];
    const sms = messages.find((m) => new Date(m.created_at) >= since);
    const code = sms?.text.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code texted to ${to} within ${timeoutMs} ms`);
}
