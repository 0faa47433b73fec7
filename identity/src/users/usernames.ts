import { errors } from '../errors.ts';
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from '../instance/environment.ts';

/**
 * Usernames: 4 to 64 characters (the environment's `username_settings`), ASCII letters, digits, `_`,
 * `-` and `.`. No `@`, so a sign-in identifier is a username exactly when it is not an email address.
 * Stored lowercased, as Clerk does, so uniqueness ignores case.
 */
const USERNAME_PATTERN = /^[a-z0-9_.-]+$/;

export function validateUsername(raw: string, param = 'username'): string {
  const username = raw.trim().toLowerCase();
  const length = [...username].length;
  if (length < USERNAME_MIN_LENGTH || length > USERNAME_MAX_LENGTH) {
    throw errors.usernameInvalidLength(USERNAME_MIN_LENGTH, USERNAME_MAX_LENGTH, param);
  }
  if (!USERNAME_PATTERN.test(username)) throw errors.usernameInvalidCharacter(param);
  return username;
}

/** A sign-in identifier names a username when it is not an email address. */
export function isUsernameIdentifier(identifier: string): boolean {
  return !identifier.includes('@');
}
