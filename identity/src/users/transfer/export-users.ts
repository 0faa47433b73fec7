import { stringify } from 'csv-stringify/sync';
import { unseal } from '../../crypto/sealing.ts';
import { isImportedDigest } from '../../crypto/imported-passwords.ts';
import type { Queryable } from '../../db/database.ts';
import { totpSealingKey } from '../../second-factors/totp.ts';
import { identifiersForExport, usersForExport, type ExportedUserRow } from '../../store/user-transfer.ts';
import { CLERK_CSV_COLUMNS } from './clerk-csv.ts';

const PAGE = 500;

export interface ExportOptions {
  /** The password digests (argon2id, or an imported one as it came), else the columns stay empty. */
  passwordHashes: boolean;
  /** The authenticator apps' secrets, unsealed, else the column stays empty. */
  totpSecrets: boolean;
}

/** `password_digest` and `password_hasher` of a stored hash, as hosted Clerk's import takes them. */
function passwordColumns(hash: string | null): [string, string] {
  if (!hash) return ['', ''];
  if (isImportedDigest(hash)) {
    const rest = hash.slice('imported:'.length);
    const colon = rest.indexOf(':');
    return [rest.slice(colon + 1), rest.slice(0, colon)];
  }
  if (hash.startsWith('$argon2id$')) return [hash, 'argon2id'];
  if (hash.startsWith('$argon2i$')) return [hash, 'argon2i'];
  return ['', ''];
}

/**
 * Every user as a row of hosted Clerk's export CSV (the same header, multiple values joined by `|`),
 * oldest first, read a page at a time. Secrets only as `options` asks.
 */
export async function exportUsersCsv(
  db: Queryable,
  instanceSecretKey: string,
  options: ExportOptions,
): Promise<{ csv: string; users: number }> {
  const rows: string[][] = [];
  let after: ExportedUserRow | null = null;
  for (;;) {
    const users = await usersForExport(db, after && { createdAt: after.created_at, id: after.id }, PAGE);
    if (!users.length) break;
    const { emails, phones, totp } = await identifiersForExport(
      db,
      users.map((u) => u.id),
    );
    for (const user of users) {
      const own = <T extends { user_id: string }>(list: T[]) => list.filter((x) => x.user_id === user.id);
      const userEmails = own(emails);
      const userPhones = own(phones);
      const primaryEmail = userEmails.find((e) => e.id === user.primary_email_address_id && e.verified_at);
      const primaryPhone = userPhones.find((p) => p.id === user.primary_phone_number_id && p.verified_at);
      const [digest, hasher] = options.passwordHashes ? passwordColumns(user.password_hash) : ['', ''];
      const secret = own(totp)[0];
      const totpSecret =
        options.totpSecrets && secret
          ? unseal(totpSealingKey(instanceSecretKey), secret.sealed_secret, secret.id)
          : '';
      const joined = (values: string[]) => values.join('|');
      rows.push([
        user.id,
        user.first_name ?? '',
        user.last_name ?? '',
        user.username ?? '',
        primaryEmail?.email_address ?? '',
        primaryPhone?.phone_number ?? '',
        joined(userEmails.filter((e) => e.verified_at).map((e) => e.email_address)),
        joined(userEmails.filter((e) => !e.verified_at).map((e) => e.email_address)),
        joined(userPhones.filter((p) => p.verified_at).map((p) => p.phone_number)),
        joined(userPhones.filter((p) => !p.verified_at).map((p) => p.phone_number)),
        totpSecret,
        digest,
        hasher,
      ]);
    }
    after = users[users.length - 1]!;
    if (users.length < PAGE) break;
  }
  return { csv: stringify(rows, { header: true, columns: [...CLERK_CSV_COLUMNS] }), users: rows.length };
}
