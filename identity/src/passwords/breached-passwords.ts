import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The shipped list of breached and common passwords: the 49,233 passwords of @zxcvbn-ts/language-common's
 * `passwords` dictionary (the most frequent passwords of public breach corpora, as maintained by the
 * zxcvbn-ts project). An offline stand-in for Have I Been Pwned, which an offline provider cannot ask.
 * Compared in lower case, as the list is.
 */
let breached: Set<string> | null = null;

export function isBreachedPassword(password: string): boolean {
  breached ??= new Set(dictionary.passwords);
  return breached.has(password.toLowerCase());
}
