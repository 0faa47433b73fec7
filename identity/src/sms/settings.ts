import type { TwilioSettings } from './twilio.ts';

/** How the instance sends SMS codes (sign-in, sign-up, second factor, phone numbers added in the profile). */
export interface SmsSettings {
  /** Twilio, when configured; otherwise development mode keeps SMS in the outbox and production has none. */
  twilio: TwilioSettings | null;
}

const TWILIO_VARIABLES = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const;

/**
 * `TWILIO_ACCOUNT_SID`, `TWILIO_AUTH_TOKEN` and `TWILIO_FROM` (a number in E.164 or a Messaging Service
 * SID), all three or none; `TWILIO_API_URL` only to point at a stand-in.
 */
export function smsSettingsFromEnv(env: NodeJS.ProcessEnv): SmsSettings {
  const given = TWILIO_VARIABLES.filter((name) => env[name]);
  if (given.length === 0) return { twilio: null };
  if (given.length < TWILIO_VARIABLES.length) {
    throw new Error(`${TWILIO_VARIABLES.join(', ')} must be set together (SMS through Twilio).`);
  }
  const from = env.TWILIO_FROM!;
  if (!/^\+[1-9]\d{6,14}$/.test(from) && !/^MG[0-9a-f]{32}$/i.test(from)) {
    throw new Error(
      'TWILIO_FROM must be a phone number in E.164 (+15551234567) or a Messaging Service SID (MG…).',
    );
  }
  return {
    twilio: {
      accountSid: env.TWILIO_ACCOUNT_SID!,
      authToken: env.TWILIO_AUTH_TOKEN!,
      from,
      apiUrl: env.TWILIO_API_URL ?? 'https://api.twilio.com',
    },
  };
}
