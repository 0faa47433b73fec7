import { createCipheriv, createHash, pbkdf2, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import bcrypt from 'bcryptjs';
import { errors } from '../errors.ts';

/**
 * Password digests brought from another system (Backend API `password_digest` + `password_hasher`, in
 * Clerk's documented formats). Argon2 digests are stored as they are (argon2 verifies them itself); any
 * other is stored as `imported:<hasher>:<digest>`, so the scheme travels with the hash in the one column
 * every password check already reads. The first right password replaces it with our argon2id.
 */

export const PASSWORD_HASHERS = [
  'argon2i',
  'argon2id',
  'bcrypt',
  'bcrypt_sha256_django',
  'ldap_ssha',
  'md5',
  'md5_phpass',
  'pbkdf2_sha1',
  'pbkdf2_sha256',
  'pbkdf2_sha256_django',
  'pbkdf2_sha512',
  'pbkdf2_sha512_hex',
  'phpass',
  'scrypt_firebase',
  'scrypt_werkzeug',
  'sha256',
  'sha512_symfony',
] as const;
/*
 * Clerk also names awscognito (checked against the user pool by Cognito itself), bcrypt_peppered and
 * hmac_sha256_utf16_b64 (a secret pepper or key of the old system's), md5_salted and sha256_salted (whose salt
 * placement Clerk does not document): a digest alone cannot be checked, so they are refused as unknown.
 */
export type PasswordHasher = (typeof PASSWORD_HASHERS)[number];

const PREFIX = 'imported:';
const B64 = /^[A-Za-z0-9+/]+={0,2}$/;
const HEX = (length: number) => new RegExp(`^[0-9a-fA-F]{${length}}$`);
// Costs an import may ask of every sign-in: beyond these a digest would let its author stall the server.
const MAX_BCRYPT_COST = 15;
const MAX_PBKDF2_ITERATIONS = 2_000_000;
const MAX_SCRYPT_MEM_COST = 17;
const MAX_SCRYPT_ROUNDS = 16;
const MAX_ARGON2_MEMORY_KIB = 262_144;
const MAX_ARGON2_PASSES = 10;
const MAX_PHPASS_LOG2_ROUNDS = 20;
const MAX_SYMFONY_ITERATIONS = 200_000;
const MAX_WERKZEUG_N = 2 ** 17;
const PHPASS_ITOA = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

interface Pbkdf2Digest {
  iterations: number;
  salt: Buffer;
  hash: Buffer;
}

interface FirebaseDigest {
  hash: Buffer;
  salt: Buffer;
  signerKey: Buffer;
  saltSeparator: Buffer;
  rounds: number;
  memCost: number;
}

function invalid(hasher: string): never {
  throw errors.paramFormatInvalid('password_digest', `a valid ${hasher} digest`);
}

function integer(text: string | undefined, min: number, max: number, hasher: string): number {
  if (!text || !/^\d{1,9}$/.test(text)) invalid(hasher);
  const n = Number(text);
  if (n < min || n > max) invalid(hasher);
  return n;
}

function base64(text: string | undefined, hasher: string): Buffer {
  if (!text || !B64.test(text)) invalid(hasher);
  return Buffer.from(text, 'base64');
}

/** `<name>$<iterations>$<salt>$<hash>`, the salt base64 or as it is, the hash base64 or hex. */
function pbkdf2Digest(
  digest: string,
  hasher: string,
  name: string,
  salt: 'base64' | 'raw' | 'hex',
  hash: 'base64' | 'hex',
): Pbkdf2Digest {
  const parts = digest.split('$');
  if (parts.length !== 4 || parts[0] !== name || !parts[2]) invalid(hasher);
  const iterations = integer(parts[1], 1, MAX_PBKDF2_ITERATIONS, hasher);
  if (salt === 'hex' && !/^(?:[0-9a-fA-F]{2})+$/.test(parts[2])) invalid(hasher);
  const saltBytes =
    salt === 'base64' ? base64(parts[2], hasher) : Buffer.from(parts[2], salt === 'hex' ? 'hex' : 'utf8');
  if (hash === 'hex' && !/^(?:[0-9a-fA-F]{2}){16,64}$/.test(parts[3] ?? '')) invalid(hasher);
  const hashBytes = hash === 'hex' ? Buffer.from(parts[3]!, 'hex') : base64(parts[3], hasher);
  if (hashBytes.length < 16 || hashBytes.length > 64) invalid(hasher);
  return { iterations, salt: saltBytes, hash: hashBytes };
}

/** `<hash>$<salt>$<signer key>$<salt separator>$<rounds>$<memory cost>`, the first four base64. */
function firebaseDigest(digest: string): FirebaseDigest {
  const h = 'scrypt_firebase';
  const parts = digest.split('$');
  if (parts.length !== 6) invalid(h);
  return {
    hash: base64(parts[0], h),
    salt: base64(parts[1], h),
    signerKey: base64(parts[2], h),
    saltSeparator: base64(parts[3], h),
    rounds: integer(parts[4], 1, MAX_SCRYPT_ROUNDS, h),
    memCost: integer(parts[5], 1, MAX_SCRYPT_MEM_COST, h),
  };
}

/** The PBKDF2 variants: their digest's layout and their hash function. */
const PBKDF2: Record<
  string,
  { name: string; salt: 'base64' | 'raw' | 'hex'; hash: 'base64' | 'hex'; algo: string }
> = {
  pbkdf2_sha1: { name: 'pbkdf2_sha1', salt: 'raw', hash: 'hex', algo: 'sha1' },
  pbkdf2_sha256: { name: 'pbkdf2_sha256', salt: 'base64', hash: 'base64', algo: 'sha256' },
  pbkdf2_sha256_django: { name: 'pbkdf2_sha256', salt: 'raw', hash: 'base64', algo: 'sha256' },
  pbkdf2_sha512: { name: 'pbkdf2_sha512', salt: 'raw', hash: 'hex', algo: 'sha512' },
  pbkdf2_sha512_hex: { name: 'pbkdf2_sha512_hex', salt: 'hex', hash: 'hex', algo: 'sha512' },
};

function pbkdf2Of(hasher: string, digest: string): Pbkdf2Digest & { algo: string } {
  const v = PBKDF2[hasher]!;
  return { ...pbkdf2Digest(digest, hasher, v.name, v.salt, v.hash), algo: v.algo };
}

const BCRYPT_DIGEST = /^\$2[abxy]?\$(\d{2})\$[./A-Za-z0-9]{53}$/;

function checkBcrypt(digest: string, hasher: string): void {
  const match = BCRYPT_DIGEST.exec(digest);
  if (!match || Number(match[1]) < 4 || Number(match[1]) > MAX_BCRYPT_COST) invalid(hasher);
}

/** phpass's portable hash (WordPress, phpBB): `$P$` or `$H$`, the rounds' log2, 8 salt characters, 22 of hash. */
function phpassDigest(digest: string, hasher: string): { log2: number; salt: string } {
  if (!/^\$[PH]\$[./0-9A-Za-z]{31}$/.test(digest)) invalid(hasher);
  const log2 = PHPASS_ITOA.indexOf(digest[3]!);
  if (log2 < 7 || log2 > MAX_PHPASS_LOG2_ROUNDS) invalid(hasher);
  return { log2, salt: digest.slice(4, 12) };
}

/** Werkzeug's `scrypt:<N>:<r>:<p>$<salt>$<hex hash>` (the salt used as its text). */
function werkzeugDigest(digest: string): { N: number; r: number; p: number; salt: string; hash: Buffer } {
  const h = 'scrypt_werkzeug';
  const match = /^scrypt:(\d{1,7}):(\d{1,2}):(\d{1,2})\$([^$]{1,128})\$((?:[0-9a-f]{2}){16,64})$/.exec(
    digest,
  );
  if (!match) invalid(h);
  const [N, r, p] = match.slice(1, 4).map(Number) as [number, number, number];
  if (N < 2 || N > MAX_WERKZEUG_N || (N & (N - 1)) !== 0 || r < 1 || r > 16 || p < 1 || p > 4) invalid(h);
  return { N, r, p, salt: match[4]!, hash: Buffer.from(match[5]!, 'hex') };
}

/** OpenLDAP's `{SSHA}` + base64(SHA-1(password + salt) + salt). */
function sshaDigest(digest: string): { hash: Buffer; salt: Buffer } {
  const h = 'ldap_ssha';
  if (!digest.startsWith('{SSHA}')) invalid(h);
  const bytes = base64(digest.slice(6), h);
  if (bytes.length <= 20 || bytes.length > 20 + 64) invalid(h);
  return { hash: bytes.subarray(0, 20), salt: bytes.subarray(20) };
}

/** Symfony's legacy message digest hasher: `sha512_symfony$<iterations>$<salt>$<base64 hash>`. */
function symfonyDigest(digest: string): { iterations: number; salt: string; hash: Buffer } {
  const h = 'sha512_symfony';
  const parts = digest.split('$');
  if (parts.length !== 4 || parts[0] !== 'sha512_symfony' || /[{}]/.test(parts[2] ?? '')) invalid(h);
  const iterations = integer(parts[1], 1, MAX_SYMFONY_ITERATIONS, h);
  const hash = base64(parts[3], h);
  if (hash.length !== 64) invalid(h);
  return { iterations, salt: parts[2]!, hash };
}

/** Checks a digest against its hasher's format; throws 422 `form_param_format_invalid` when it is not one. */
function checkDigest(hasher: PasswordHasher, digest: string): void {
  switch (hasher) {
    case 'argon2i':
    case 'argon2id': {
      const match = new RegExp(
        `^\\$${hasher}\\$v=19\\$m=(\\d{1,7}),t=(\\d{1,3}),p=(\\d{1,2})\\$[A-Za-z0-9+/]+\\$[A-Za-z0-9+/]+$`,
      ).exec(digest);
      if (!match) invalid(hasher);
      const [memory, passes, lanes] = match.slice(1).map(Number) as [number, number, number];
      if (memory > MAX_ARGON2_MEMORY_KIB || passes > MAX_ARGON2_PASSES || lanes < 1 || lanes > 16)
        invalid(hasher);
      return;
    }
    case 'bcrypt':
      checkBcrypt(digest, hasher);
      return;
    case 'bcrypt_sha256_django':
      if (!digest.startsWith('bcrypt_sha256$')) invalid(hasher);
      checkBcrypt(digest.slice('bcrypt_sha256$'.length), hasher);
      return;
    case 'phpass':
    case 'md5_phpass':
      phpassDigest(digest, hasher);
      return;
    case 'scrypt_werkzeug':
      werkzeugDigest(digest);
      return;
    case 'ldap_ssha':
      sshaDigest(digest);
      return;
    case 'sha512_symfony':
      symfonyDigest(digest);
      return;
    case 'md5':
      if (!HEX(32).test(digest)) invalid(hasher);
      return;
    case 'sha256':
      if (!HEX(64).test(digest)) invalid(hasher);
      return;
    case 'pbkdf2_sha1':
    case 'pbkdf2_sha256':
    case 'pbkdf2_sha256_django':
    case 'pbkdf2_sha512':
    case 'pbkdf2_sha512_hex':
      pbkdf2Of(hasher, digest);
      return;
    case 'scrypt_firebase':
      firebaseDigest(digest);
      return;
  }
}

/**
 * What to store for an imported digest: the argon2 digest itself, or `imported:<hasher>:<digest>`. A
 * hasher we do not take is 422 `form_param_value_invalid`; a digest not in its format, 422
 * `form_param_format_invalid`.
 */
export function storedImportedDigest(hasher: string, digest: string): string {
  if (!(PASSWORD_HASHERS as readonly string[]).includes(hasher)) {
    throw errors.paramValueInvalid(
      'password_hasher',
      `password_hasher must be one of ${PASSWORD_HASHERS.join(', ')}.`,
    );
  }
  if (digest.length > 1024) invalid(hasher);
  checkDigest(hasher as PasswordHasher, digest);
  return hasher === 'argon2i' || hasher === 'argon2id' ? digest : `${PREFIX}${hasher}:${digest}`;
}

/** A stored hash made by another system: checked here rather than by argon2. */
export function isImportedDigest(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

const pbkdf2Async = promisify(pbkdf2);
const scryptAsync = promisify(scrypt) as (
  password: string | Buffer,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** phpass's portable hash of `password` with the setting (rounds and salt) of `digest`. */
function phpassHash(password: string, digest: string): string {
  const { log2, salt } = phpassDigest(digest, 'phpass');
  const pw = Buffer.from(password, 'utf8');
  let hash = createHash('md5').update(salt, 'ascii').update(pw).digest();
  for (let i = 0; i < 2 ** log2; i++) hash = createHash('md5').update(hash).update(pw).digest();
  return digest.slice(0, 12) + phpassEncode(hash);
}

/** phpass's own base64 (its alphabet, little-endian groups of three bytes). */
function phpassEncode(input: Buffer): string {
  let out = '';
  for (let i = 0; i < input.length;) {
    let value = input[i++]!;
    out += PHPASS_ITOA[value & 0x3f];
    if (i < input.length) value |= input[i]! << 8;
    out += PHPASS_ITOA[(value >> 6) & 0x3f];
    if (i++ >= input.length) break;
    if (i < input.length) value |= input[i]! << 16;
    out += PHPASS_ITOA[(value >> 12) & 0x3f];
    if (i++ >= input.length) break;
    out += PHPASS_ITOA[(value >> 18) & 0x3f];
  }
  return out;
}

/** Firebase's modified scrypt: the scrypt key encrypts the project's signer key (AES-256-CTR, zero IV). */
async function firebaseHash(password: string, d: FirebaseDigest): Promise<Buffer> {
  const N = 2 ** d.memCost;
  const key = await scryptAsync(password, Buffer.concat([d.salt, d.saltSeparator]), 32, {
    N,
    r: d.rounds,
    p: 1,
    maxmem: 256 * N * d.rounds + 1024 * 1024,
  });
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16, 0));
  return Buffer.concat([cipher.update(d.signerKey), cipher.final()]);
}

/** True when `password` matches an imported digest (stored as `storedImportedDigest` made it). */
export async function verifyImportedDigest(stored: string, password: string): Promise<boolean> {
  const rest = stored.slice(PREFIX.length);
  const colon = rest.indexOf(':');
  const hasher = rest.slice(0, colon) as PasswordHasher;
  const digest = rest.slice(colon + 1);
  switch (hasher) {
    case 'bcrypt':
      return bcrypt.compare(password, digest);
    case 'md5':
    case 'sha256': {
      const mine = createHash(hasher).update(password, 'utf8').digest();
      return sameBytes(mine, Buffer.from(digest, 'hex'));
    }
    case 'bcrypt_sha256_django': {
      // Django hashes the password with SHA-256 first (hex), so bcrypt's 72-byte limit does not cut it.
      const prehashed = createHash('sha256').update(password, 'utf8').digest('hex');
      return bcrypt.compare(prehashed, digest.slice('bcrypt_sha256$'.length));
    }
    case 'phpass':
    case 'md5_phpass':
      return sameBytes(Buffer.from(phpassHash(password, digest), 'ascii'), Buffer.from(digest, 'ascii'));
    case 'scrypt_werkzeug': {
      const d = werkzeugDigest(digest);
      const mine = await scryptAsync(password, Buffer.from(d.salt, 'utf8'), d.hash.length, {
        N: d.N,
        r: d.r,
        p: d.p,
        maxmem: 128 * d.N * d.r * d.p + 1024 * 1024,
      });
      return sameBytes(mine, d.hash);
    }
    case 'ldap_ssha': {
      const d = sshaDigest(digest);
      const mine = createHash('sha1').update(password, 'utf8').update(d.salt).digest();
      return sameBytes(mine, d.hash);
    }
    case 'sha512_symfony': {
      const d = symfonyDigest(digest);
      const salted = Buffer.from(d.salt ? `${password}{${d.salt}}` : password, 'utf8');
      let mine = createHash('sha512').update(salted).digest();
      for (let i = 1; i < d.iterations; i++) mine = createHash('sha512').update(mine).update(salted).digest();
      return sameBytes(mine, d.hash);
    }
    case 'pbkdf2_sha1':
    case 'pbkdf2_sha256':
    case 'pbkdf2_sha256_django':
    case 'pbkdf2_sha512':
    case 'pbkdf2_sha512_hex': {
      const d = pbkdf2Of(hasher, digest);
      return sameBytes(await pbkdf2Async(password, d.salt, d.iterations, d.hash.length, d.algo), d.hash);
    }
    case 'scrypt_firebase': {
      const d = firebaseDigest(digest);
      return sameBytes(await firebaseHash(password, d), d.hash);
    }
    default:
      throw new Error(`unknown imported password hasher: ${hasher.slice(0, 32)}`);
  }
}
