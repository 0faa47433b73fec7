/**
 * The instance's password rules, advertised to clerk-js in `password_settings` (which checks them as the
 * user types) and enforced again by the provider on every password it accepts.
 */
export interface PasswordPolicy {
  /** Characters; clerk-js clamps it to at least 8. */
  minLength: number;
  /** UTF-8 bytes, argon2's practical limit as Clerk's; clerk-js clamps it to at most 72. */
  maxBytes: number;
  requireUppercase: boolean;
  requireLowercase: boolean;
  requireNumbers: boolean;
  requireSpecialChar: boolean;
  /** zxcvbn score 0–4 a password must reach; 0 switches the strength check (and clerk-js's meter) off. */
  minStrength: 0 | 1 | 2 | 3 | 4;
  /** Refuse passwords found in the shipped list of breached and common passwords. */
  rejectBreached: boolean;
}

/** Characters that count as special: clerk-js's default set, used when `allowed_special_characters` is empty. */
export const SPECIAL_CHARACTERS = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_BYTES = 72;

const CLASSES = ['uppercase', 'lowercase', 'numbers', 'special'] as const;

/**
 * `IDENTITY_PASSWORD_REQUIRE`: a comma-separated subset of uppercase, lowercase, numbers, special.
 * `IDENTITY_PASSWORD_MIN_STRENGTH`: 0–4 (default 2: "fair", which refuses the guessable passwords zxcvbn
 * scores 0–1 and accepts passphrases). `IDENTITY_PASSWORD_REJECT_BREACHED=false` turns the list check off.
 */
export function passwordPolicyFromEnv(env: NodeJS.ProcessEnv): PasswordPolicy {
  const required = new Set(
    (env.IDENTITY_PASSWORD_REQUIRE ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
  for (const name of required) {
    if (!(CLASSES as readonly string[]).includes(name)) {
      throw new Error(`IDENTITY_PASSWORD_REQUIRE: unknown class "${name}" (expected ${CLASSES.join(', ')}).`);
    }
  }
  const strength = Number(env.IDENTITY_PASSWORD_MIN_STRENGTH ?? 2);
  if (!Number.isInteger(strength) || strength < 0 || strength > 4) {
    throw new Error('IDENTITY_PASSWORD_MIN_STRENGTH must be an integer from 0 to 4.');
  }
  const minLength = Number(env.IDENTITY_PASSWORD_MIN_LENGTH ?? PASSWORD_MIN_LENGTH);
  if (!Number.isInteger(minLength) || minLength < PASSWORD_MIN_LENGTH || minLength > PASSWORD_MAX_BYTES) {
    throw new Error(
      `IDENTITY_PASSWORD_MIN_LENGTH must be an integer from ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_BYTES}.`,
    );
  }
  return {
    minLength,
    maxBytes: PASSWORD_MAX_BYTES,
    requireUppercase: required.has('uppercase'),
    requireLowercase: required.has('lowercase'),
    requireNumbers: required.has('numbers'),
    requireSpecialChar: required.has('special'),
    minStrength: strength as PasswordPolicy['minStrength'],
    rejectBreached: env.IDENTITY_PASSWORD_REJECT_BREACHED !== 'false',
  };
}

/** `user_settings.password_settings` as clerk-js 5.90.0 reads it. */
export function passwordSettingsJSON(policy: PasswordPolicy) {
  return {
    min_length: policy.minLength,
    max_length: policy.maxBytes,
    require_special_char: policy.requireSpecialChar,
    allowed_special_characters: '',
    require_numbers: policy.requireNumbers,
    require_uppercase: policy.requireUppercase,
    require_lowercase: policy.requireLowercase,
    show_zxcvbn: policy.minStrength > 0,
    min_zxcvbn_strength: policy.minStrength,
    disable_hibp: !policy.rejectBreached,
    enforce_hibp_on_sign_in: false,
  };
}
