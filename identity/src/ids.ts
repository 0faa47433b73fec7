import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 string; rejection sampling keeps every character equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** Clerk's conventional prefixes; clerk-js and @clerk/backend check some of them (`org_`, `user_`). */
export type IdPrefix =
  | 'client'
  | 'eac'
  | 'oas'
  | 'sess'
  | 'sia'
  | 'sua'
  | 'user'
  | 'idn'
  | 'ins'
  | 'vc'
  | 'msg'
  | 'org'
  | 'orgmem'
  | 'orginv'
  | 'img'
  | 'act'
  | 'sit'
  | 'totp'
  | 'bcode'
  | 'samlc'
  | 'entc'
  | 'samlr'
  | 'evt'
  | 'ak'
  | 'oa'
  | 'wle'
  | 'inv'
  | 'msgatt'
  // Billing (Clerk's commerce ids): payer, payment source, setup intent, subscription, its item, checkout,
  // payment attempt, statement.
  | 'cpayer'
  | 'cps'
  | 'seti'
  | 'csub'
  | 'csubi'
  | 'cco'
  | 'cpay'
  | 'cstmt'
  // The allowlist, the blocklist and the allowed redirect URLs (Clerk's alid_, blid_, ru_).
  | 'alid'
  | 'blid'
  | 'ru'
  // A JWT template (Clerk's jtmp_).
  | 'jtmp'
  | 'dmn'
  // A machine and a machine-to-machine token (Clerk's mch_; the token's secret is mt_…).
  | 'mch'
  | 'm2m';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(27)}`;
}
