import { errors } from '../errors.ts';
import { isBreachedPassword } from './breached-passwords.ts';
import { SPECIAL_CHARACTERS, type PasswordPolicy } from './policy.ts';
import { passwordStrength } from './strength.ts';

/**
 * Accepts a new password or throws the first rule it breaks, in Clerk's order: length, character
 * classes, the breached list, then strength. Passwords are never trimmed: spaces are characters.
 */
export function checkNewPassword(password: string, policy: PasswordPolicy, paramName = 'password'): string {
  if ([...password].length < policy.minLength) throw errors.passwordTooShort(policy.minLength, paramName);
  if (Buffer.byteLength(password, 'utf8') > policy.maxBytes)
    throw errors.passwordTooLong(policy.maxBytes, paramName);
  // ASCII classes, as clerk-js checks them while the user types: both sides must agree.
  if (policy.requireLowercase && !/[a-z]/.test(password))
    throw errors.passwordMissingClass('lowercase', paramName);
  if (policy.requireUppercase && !/[A-Z]/.test(password))
    throw errors.passwordMissingClass('uppercase', paramName);
  if (policy.requireNumbers && !/\d/.test(password)) throw errors.passwordMissingClass('number', paramName);
  if (policy.requireSpecialChar && ![...password].some((c) => SPECIAL_CHARACTERS.includes(c)))
    throw errors.passwordMissingClass('special_char', paramName);
  if (policy.rejectBreached && isBreachedPassword(password)) throw errors.passwordPwned(paramName);
  if (policy.minStrength > 0) {
    const { score, suggestions } = passwordStrength(password);
    if (score < policy.minStrength) throw errors.passwordNotStrongEnough(suggestions, paramName);
  }
  return password;
}
