import {
  createCipheriv,
  createDecipheriv,
  createHash,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * The backup file (docs/operations.md): a first line naming the format and its version, a second line of
 * JSON (the header: what made it, when, the key derivation and cipher), the encrypted body, and the
 * SHA-256 of everything before it as the last 32 bytes.
 *
 * The body — gzip'd JSON of every table and the instance secret key — is AES-256-GCM under a key derived
 * from the operator's passphrase with scrypt; the header is authenticated with it. The checksum tells a
 * damaged file (truncated, altered) from a wrong passphrase, which only the cipher's tag can tell.
 */
export const BACKUP_MAGIC = 'QOALA-IDENTITY-BACKUP';
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupHeader {
  format: number;
  createdAt: string;
  /** The store it was taken from: `pglite` or `postgres`. */
  source: string;
  /** The newest migration the store had. */
  migration: string;
  kdf: { name: 'scrypt'; N: number; r: number; p: number; salt: string };
  cipher: 'aes-256-gcm';
  iv: string;
  tag: string;
}

/** A backup refused: damaged, of another format, or under another passphrase. Nothing was changed. */
export class BackupFileError extends Error {}

/** What a backup holds once opened. */
export interface BackupContents {
  /** The instance secret key: what TOTP secrets, API key secrets and provider tokens are sealed under. */
  secretKey: string;
  /** The applied migrations, in order. */
  migrations: string[];
  /** Each table's rows, each as its JSON text (`row_to_json`: bigints keep every digit). */
  tables: { name: string; rows: string[] }[];
  sequences: { name: string; lastValue: string; isCalled: boolean }[];
}

const SCRYPT = { N: 1 << 15, r: 8, p: 1 };
const MIN_PASSPHRASE = 12;
const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

function deriveKey(
  passphrase: string,
  kdf: { N: number; r: number; p: number },
  salt: Buffer,
): Promise<Buffer> {
  return scryptAsync(passphrase, salt, 32, { ...kdf, maxmem: 256 * kdf.N * kdf.r });
}

/** Refuses a passphrase too short to stand for the whole database's protection. */
export function checkNewPassphrase(passphrase: string): void {
  if (passphrase.length < MIN_PASSPHRASE) {
    throw new BackupFileError(`The backup passphrase must be at least ${MIN_PASSPHRASE} characters long.`);
  }
}

export async function writeBackup(
  contents: BackupContents,
  meta: { source: string; createdAt: Date },
  passphrase: string,
): Promise<Buffer> {
  checkNewPassphrase(passphrase);
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const key = await deriveKey(passphrase, SCRYPT, salt);
  const headerBase = {
    format: BACKUP_FORMAT_VERSION,
    createdAt: meta.createdAt.toISOString(),
    source: meta.source,
    migration: contents.migrations.at(-1) ?? '',
    kdf: { name: 'scrypt' as const, ...SCRYPT, salt: salt.toString('base64') },
    cipher: 'aes-256-gcm' as const,
    iv: iv.toString('base64'),
  };
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(JSON.stringify(headerBase)));
  const body = Buffer.concat([cipher.update(gzipSync(JSON.stringify(contents))), cipher.final()]);
  const header: BackupHeader = { ...headerBase, tag: cipher.getAuthTag().toString('base64') };
  const head = Buffer.from(`${BACKUP_MAGIC} ${BACKUP_FORMAT_VERSION}\n${JSON.stringify(header)}\n`);
  const unsummed = Buffer.concat([head, body]);
  return Buffer.concat([unsummed, createHash('sha256').update(unsummed).digest()]);
}

/** The header, after the checksum is verified: enough to say what the file is without the passphrase. */
export function readBackupHeader(file: Buffer): { header: BackupHeader; body: Buffer } {
  const firstLine = file.indexOf(0x0a);
  const magic = file.subarray(0, firstLine < 0 ? 64 : firstLine).toString('latin1');
  if (!magic.startsWith(`${BACKUP_MAGIC} `)) {
    throw new BackupFileError(
      'This file is not an identity backup (it does not start with QOALA-IDENTITY-BACKUP).',
    );
  }
  const version = Number(magic.slice(BACKUP_MAGIC.length + 1));
  if (version !== BACKUP_FORMAT_VERSION) {
    throw new BackupFileError(
      `This backup is of format ${magic.slice(BACKUP_MAGIC.length + 1)}; this version reads format ${BACKUP_FORMAT_VERSION}.`,
    );
  }
  if (file.length < firstLine + 1 + 32) throw damaged();
  const unsummed = file.subarray(0, file.length - 32);
  const sum = file.subarray(file.length - 32);
  if (!timingSafeEqual(createHash('sha256').update(unsummed).digest(), sum)) throw damaged();
  const secondLine = file.indexOf(0x0a, firstLine + 1);
  if (secondLine < 0 || secondLine >= unsummed.length) throw damaged();
  let header: BackupHeader;
  try {
    header = JSON.parse(file.subarray(firstLine + 1, secondLine).toString('utf8')) as BackupHeader;
  } catch {
    throw damaged();
  }
  if (header.cipher !== 'aes-256-gcm' || header.kdf?.name !== 'scrypt') throw damaged();
  return { header, body: unsummed.subarray(secondLine + 1) };
}

/** Verifies and opens a backup; throws BackupFileError for a damaged file or a wrong passphrase. */
export async function openBackup(
  file: Buffer,
  passphrase: string,
): Promise<{ header: BackupHeader; contents: BackupContents }> {
  const { header, body } = readBackupHeader(file);
  const { tag, ...headerBase } = header;
  const { name: _name, salt, ...kdf } = header.kdf;
  if (!(kdf.N >= 1 << 14 && kdf.N <= 1 << 20 && kdf.r >= 1 && kdf.r <= 32 && kdf.p >= 1 && kdf.p <= 16)) {
    throw damaged();
  }
  const key = await deriveKey(passphrase, kdf, Buffer.from(salt, 'base64'));
  let plain: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(header.iv, 'base64'));
    decipher.setAAD(Buffer.from(JSON.stringify(headerBase)));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    plain = Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    throw new BackupFileError('The passphrase does not open this backup (wrong passphrase).');
  }
  const contents = JSON.parse(gunzipSync(plain).toString('utf8')) as BackupContents;
  return { header, contents };
}

const damaged = () =>
  new BackupFileError('This backup is damaged (its checksum does not match): it was truncated or altered.');
