import { cell } from './import-record.ts';

/**
 * One user of an Auth0 export, as `users.createUser` fields: the bulk user export (NDJSON, the fields chosen
 * when the export job was made) or the export Auth0's support makes with password hashes (`passwordHash`,
 * bcrypt; `_id.$oid` for the id). Auth0's `user_id` becomes the external id; its `user_metadata` (which the
 * user may edit) the unsafe metadata, its `app_metadata` the private metadata.
 */
export function auth0Body(user: Record<string, unknown>): Record<string, unknown> | string {
  const oid = (user._id as { $oid?: unknown } | undefined)?.$oid;
  const userId = cell(user.user_id) ?? (typeof oid === 'string' && oid ? `auth0|${oid}` : undefined);
  if (!userId) return 'no user_id';
  const email = cell(user.email);
  const phone = cell(user.phone_number);
  const hash = cell(user.passwordHash) ?? cell(user.password_hash);
  const verified = (flag: unknown) => flag === true || flag === 'true';
  return {
    external_id: userId,
    first_name: cell(user.given_name),
    last_name: cell(user.family_name),
    username: cell(user.username),
    email_address: email && verified(user.email_verified) ? [email] : [],
    unverified_email_address: email && !verified(user.email_verified) ? [email] : [],
    phone_number: phone && verified(user.phone_verified) ? [phone] : [],
    unverified_phone_number: phone && !verified(user.phone_verified) ? [phone] : [],
    password_digest: hash,
    password_hasher: hash ? 'bcrypt' : undefined,
    // A user of a social or passwordless connection has none: they come across without one.
    skip_password_requirement: !hash,
    unsafe_metadata: user.user_metadata ?? undefined,
    private_metadata: user.app_metadata ?? undefined,
    // The support export writes dates as MongoDB's `{ "$date": "…" }`.
    created_at:
      typeof user.created_at === 'string'
        ? user.created_at
        : cell((user.created_at as { $date?: unknown } | undefined)?.$date),
  };
}
