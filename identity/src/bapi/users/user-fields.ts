import { hashPassword } from '../../crypto/passwords.ts';
import { storedImportedDigest } from '../../crypto/imported-passwords.ts';
import type { IdentityDeps } from '../../deps.ts';
import { errors } from '../../errors.ts';
import { checkNewPassword } from '../../passwords/check-password.ts';
import type { JsonBody } from '../request-input.ts';
import type { BapiFieldKind } from '../json-input.ts';

/** The body fields `users.createUser` and `users.updateUser` share. */
export const USER_WRITE_FIELDS = {
  external_id: 'string',
  first_name: 'string',
  last_name: 'string',
  username: 'string',
  password: 'string',
  password_digest: 'string',
  password_hasher: 'string',
  skip_password_checks: 'boolean',
  skip_legal_checks: 'boolean',
  legal_accepted_at: 'string',
  totp_secret: 'string',
  backup_codes: 'strings',
  created_at: 'string',
  public_metadata: 'object',
  private_metadata: 'object',
  unsafe_metadata: 'object',
} as const satisfies Record<string, BapiFieldKind>;

const NAME_MAX = 256;

/** A name field: trimmed, at most 256 characters; '' clears it. */
export function nameField(fields: JsonBody, name: 'first_name' | 'last_name'): string | null | undefined {
  const value = fields.string(name);
  if (value === undefined) return undefined;
  if ([...value].length > NAME_MAX) throw errors.paramMaxLength(name, NAME_MAX);
  return value.trim() || null;
}

/** An RFC 3339 timestamp field, or undefined when absent. */
export function dateField(fields: JsonBody, name: 'created_at' | 'legal_accepted_at'): Date | undefined {
  const value = fields.string(name);
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(date.getTime())) {
    throw errors.paramFormatInvalid(name, 'an RFC 3339 date and time');
  }
  return date;
}

/** An external id: at most 255 characters; '' clears it. */
export function externalIdField(fields: JsonBody): string | null | undefined {
  const value = fields.string('external_id');
  if (value === undefined) return undefined;
  if (value.length > 255) throw errors.paramMaxLength('external_id', 255);
  return value || null;
}

/**
 * The password hash a create or update writes, made before any transaction: a plaintext `password`
 * (checked against the policy unless `skip_password_checks`) hashed with argon2id, or an imported
 * `password_digest` with its `password_hasher` (stored as it is, checked at sign-in). Both at once is
 * refused, as Clerk does; undefined: no password given.
 */
export async function passwordHashOf(
  fields: JsonBody,
  deps: Pick<IdentityDeps, 'config'>,
): Promise<string | undefined> {
  const password = fields.string('password');
  const digest = fields.string('password_digest');
  const hasher = fields.string('password_hasher');
  if (password !== undefined && digest !== undefined) {
    throw errors.paramValueInvalid('password_digest', 'Give either password or password_digest, not both.');
  }
  if (digest !== undefined || hasher !== undefined) {
    if (digest === undefined) throw errors.paramMissing('password_digest');
    if (hasher === undefined) throw errors.paramMissing('password_hasher');
    return storedImportedDigest(hasher, digest);
  }
  if (password === undefined) return undefined;
  if (fields.boolean('skip_password_checks')) {
    // Migrating plaintext passwords: only the length the hash can take is still enforced.
    if (Buffer.byteLength(password, 'utf8') > deps.config.passwordPolicy.maxBytes)
      throw errors.passwordTooLong(deps.config.passwordPolicy.maxBytes);
    if (password.length === 0) throw errors.paramMissing('password');
  } else {
    checkNewPassword(password, deps.config.passwordPolicy);
  }
  return hashPassword(password);
}

/** Backup codes given in plain (6 to 32 letters and digits each, at most 20). */
export function backupCodesField(fields: JsonBody): string[] | undefined {
  const codes = fields.strings('backup_codes');
  if (codes === undefined) return undefined;
  if (codes.length > 20 || codes.some((c) => !/^[A-Za-z0-9]{6,32}$/.test(c))) {
    throw errors.paramFormatInvalid('backup_codes', 'a list of up to 20 backup codes');
  }
  return codes.map((c) => c.toLowerCase());
}

/** A TOTP secret in base32 (SHA-1, 6 digits, 30 s, as Clerk takes it). */
export function totpSecretField(fields: JsonBody): string | undefined {
  const secret = fields.string('totp_secret');
  if (secret === undefined) return undefined;
  const clean = secret.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z2-7]{16,128}=*$/.test(clean)) throw errors.paramFormatInvalid('totp_secret', 'a base32 secret');
  return clean.replace(/=+$/, '');
}
