import { randomInt } from 'node:crypto';

export const BACKUP_CODE_COUNT = 10;
const LENGTH = 8;
// Lower-case letters and digits, as hosted Clerk's codes: 36^8 ≈ 2.8e12 each.
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh set of distinct single-use codes. */
export function newBackupCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < BACKUP_CODE_COUNT) {
    let code = '';
    for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
    codes.add(code);
  }
  return [...codes];
}

/** What people type from a printout (capitals, spaces, a hyphen in the middle) is the same code. */
export function normalizeBackupCode(input: string): string {
  return input.replace(/[\s-]+/g, '').toLowerCase();
}

/** The keyed-hash subject of a user's backup codes (see `hashCode`). */
export const backupCodeSubject = (userId: string) => `backup_code:${userId}`;
