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
  'md5',
  'pbkdf2_sha1',
  'pbkdf2_sha256',
  'pbkdf2_sha256_django',
  'scrypt_firebase',
  'sha256',
] as const;
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
  salt: 'base64' | 'raw',
  hash: 'base64' | 'hex',
): Pbkdf2Digest {
  const parts = digest.split('$');
  if (parts.length !== 4 || parts[0] !== name || !parts[2]) invalid(hasher);
  const iterations = integer(parts[1], 1, MAX_PBKDF2_ITERATIONS, hasher);
  const saltBytes = salt === 'base64' ? base64(parts[2], hasher) : Buffer.from(parts[2]!, 'utf8');
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
    case 'bcrypt': {
      const match = /^\$2[abxy]?\$(\d{2})\$[./A-Za-z0-9]{53}$/.exec(digest);
      if (!match || Number(match[1]) < 4 || Number(match[1]) > MAX_BCRYPT_COST) invalid(hasher);
      return;
    }
    case 'md5':
      if (!HEX(32).test(digest)) invalid(hasher);
      return;
    case 'sha256':
      if (!HEX(64).test(digest)) invalid(hasher);
      return;
    case 'pbkdf2_sha1':
      pbkdf2Digest(digest, hasher, 'pbkdf2_sha1', 'raw', 'hex');
      return;
    case 'pbkdf2_sha256':
      pbkdf2Digest(digest, hasher, 'pbkdf2_sha256', 'base64', 'base64');
      return;
    case 'pbkdf2_sha256_django':
      pbkdf2Digest(digest, hasher, 'pbkdf2_sha256', 'raw', 'base64');
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
    case 'pbkdf2_sha1':
    case 'pbkdf2_sha256':
    case 'pbkdf2_sha256_django': {
      const d =
        hasher === 'pbkdf2_sha1'
          ? pbkdf2Digest(digest, hasher, 'pbkdf2_sha1', 'raw', 'hex')
          : hasher === 'pbkdf2_sha256'
            ? pbkdf2Digest(digest, hasher, 'pbkdf2_sha256', 'base64', 'base64')
            : pbkdf2Digest(digest, hasher, 'pbkdf2_sha256', 'raw', 'base64');
      const algo = hasher === 'pbkdf2_sha1' ? 'sha1' : 'sha256';
      return sameBytes(await pbkdf2Async(password, d.salt, d.iterations, d.hash.length, algo), d.hash);
    }
    case 'scrypt_firebase': {
      const d = firebaseDigest(digest);
      return sameBytes(await firebaseHash(password, d), d.hash);
    }
    default:
      throw new Error(`unknown imported password hasher: ${hasher.slice(0, 32)}`);
  }
}
