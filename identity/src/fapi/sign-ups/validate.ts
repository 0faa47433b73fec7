import { errors } from '../../errors.ts';
import { NAME_MAX_LENGTH } from '../../instance/environment.ts';
import { checkNewPassword } from '../../passwords/check-password.ts';
import type { PasswordPolicy } from '../../passwords/policy.ts';
import { validateUsername } from '../../users/usernames.ts';
import { validateEmail } from '../../users/email-format.ts';
import { GOOGLE_ONE_TAP } from '../../social/google-one-tap.ts';
import { booleanField, field, has, jsonObjectField, rawField, type FormBody } from '../form.ts';

/** Re-exported for the handlers that read their input from here. */
export { validateEmail };

function validateName(body: FormBody, name: 'first_name' | 'last_name'): string | null | undefined {
  if (!has(body, name)) return undefined;
  const value = field(body, name);
  if (value === undefined) return null;
  if ([...value].length > NAME_MAX_LENGTH) throw errors.paramMaxLength(name, NAME_MAX_LENGTH);
  return value;
}

export interface SignUpInput {
  email?: string;
  username?: string;
  password?: string;
  firstName?: string | null;
  lastName?: string | null;
  unsafeMetadata?: Record<string, unknown>;
  legalAccepted?: boolean;
  /** An invitation ticket (`strategy=ticket`): it supplies and verifies the email address. */
  ticket?: string;
  /** `oauth_*`: the sign-up goes to that provider first. */
  socialStrategy?: string;
  /** `transfer=true`: the sign-up continues the browser's sign-in of an unknown external account. */
  transfer?: boolean;
  /** `google_one_tap`: the sign-up is made from the Google ID token `token` (checked by the handler). */
  googleOneTap?: { token: string | undefined };
  /** `enterprise_sso` (or `saml`): the address's enterprise connection verifies it; go to its IdP now. */
  enterpriseSso?: true;
}

// `phone_number` and `web3_wallet` are read with the request's context (the instance decides which are valid).
const UNSUPPORTED = ['token'] as const;

/** Parses and validates sign-up fields; any invalid field rejects the whole request, so nothing changes. */
export function parseSignUpInput(body: FormBody, passwordPolicy: PasswordPolicy): SignUpInput {
  const strategy = field(body, 'strategy');
  const oneTap = strategy === GOOGLE_ONE_TAP;
  const enterpriseSso = strategy === 'enterprise_sso' || strategy === 'saml';
  if (strategy && strategy !== 'ticket' && !oneTap && !enterpriseSso && !strategy.startsWith('oauth_'))
    throw errors.paramValueInvalid(
      'strategy',
      `The sign-up strategy "${strategy}" is not enabled for this application.`,
    );
  for (const name of UNSUPPORTED) {
    // A Google One Tap sign-up brings its ID token as `token`.
    if (oneTap && name === 'token') continue;
    if (field(body, name) !== undefined && field(body, name) !== 'false') {
      throw errors.paramValueInvalid(name, `${name.replace(/_/g, ' ')} is not enabled for this application.`);
    }
  }
  const email = field(body, 'email_address');
  const username = field(body, 'username');
  const password = rawField(body, 'password');
  const ticket = field(body, 'ticket');
  if (strategy === 'ticket' && ticket === undefined) throw errors.paramMissing('ticket');
  return {
    email: email === undefined ? undefined : validateEmail(email),
    username: username === undefined ? undefined : validateUsername(username),
    password: password === undefined ? undefined : checkNewPassword(password, passwordPolicy),
    firstName: validateName(body, 'first_name'),
    lastName: validateName(body, 'last_name'),
    unsafeMetadata: jsonObjectField(body, 'unsafe_metadata'),
    legalAccepted: booleanField(body, 'legal_accepted'),
    ticket,
    socialStrategy: strategy?.startsWith('oauth_') ? strategy : undefined,
    transfer: booleanField(body, 'transfer') === true ? true : undefined,
    googleOneTap: oneTap ? { token: field(body, 'token') } : undefined,
    enterpriseSso: enterpriseSso ? true : undefined,
  };
}
