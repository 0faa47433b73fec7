import { SmsUnavailableError, type SmsSender } from './sms-sender.ts';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** The sender: a Twilio phone number in E.164, or a Messaging Service SID (`MG…`). */
  from: string;
  /** https://api.twilio.com, or a stand-in for tests. */
  apiUrl: string;
}

/** Twilio's error codes for a recipient it will not message (invalid, not mobile, opted out, region off). */
const RECIPIENT_ERRORS = new Set([21211, 21408, 21610, 21612, 21614]);
const TIMEOUT_MS = 10_000;

/**
 * Twilio's Programmable Messaging REST API ("Create a Message": POST
 * /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded To/From/Body, HTTP Basic with the
 * account SID and auth token). No SDK: one authenticated form POST. Failures carry Twilio's HTTP status
 * and numeric error code only — never the message text (it holds the code) nor the token.
 */
export function twilioSmsSender(settings: TwilioSettings, fetchImpl: typeof fetch = fetch): SmsSender {
  const url = `${settings.apiUrl.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  const sender: [string, string] = settings.from.startsWith('MG')
    ? ['MessagingServiceSid', settings.from]
    : ['From', settings.from];
  return {
    kind: 'twilio',
    async send(_db, message) {
      let res: Response;
      try {
        res = await fetchImpl(url, {
          method: 'POST',
          headers: {
            authorization,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams([['To', message.to], sender, ['Body', message.text]]).toString(),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (err) {
        throw new SmsUnavailableError(`Twilio could not be reached: ${(err as Error).name}`);
      }
      if (res.ok) return;
      const code = await errorCodeOf(res);
      throw new SmsUnavailableError(
        `Twilio answered ${res.status}${code === null ? '' : ` (error ${code})`}`,
        res.status === 400 && code !== null && RECIPIENT_ERRORS.has(code),
      );
    },
  };
}

async function errorCodeOf(res: Response): Promise<number | null> {
  try {
    const body = (await res.json()) as { code?: unknown };
    return typeof body.code === 'number' ? body.code : null;
  } catch {
    return null;
  }
}
