import { constantTimeEqual, hashCode, randomToken } from '../crypto/secrets.ts';
import type { Queryable } from '../db/database.ts';
import { randomBase62 } from '../ids.ts';

export type EmailLinkPurpose = 'sign_in' | 'sign_up';

export interface EmailLinkRow {
  id: string;
  purpose: EmailLinkPurpose;
  attempt_id: string;
  client_id: string;
  email_address: string;
  redirect_url: string;
  expire_at: Date;
  consumed_at: Date | null;
  created_at: Date;
}

const COLUMNS =
  'id, purpose, attempt_id, client_id, email_address, redirect_url, expire_at, consumed_at, created_at';
/** `<id>.<secret>`: 31 + 1 + 43 characters; anything far longer is not one of ours. */
const MAX_TOKEN_LENGTH = 200;

const secretHash = (pepper: string, id: string, secret: string) =>
  hashCode(pepper, `email_link:${id}`, secret);

/**
 * Issues a link token for an attempt; earlier unused links of the same attempt stop working ("resend"
 * leaves one valid link). The token exists only in the return value, which goes into the email.
 */
export async function issueEmailLink(
  db: Queryable,
  input: {
    purpose: EmailLinkPurpose;
    attemptId: string;
    clientId: string;
    email: string;
    redirectUrl: string;
    pepper: string;
    ttlSeconds: number;
    now: Date;
  },
): Promise<{ token: string; expireAt: Date }> {
  await db.query('UPDATE email_links SET consumed_at = $2 WHERE attempt_id = $1 AND consumed_at IS NULL', [
    input.attemptId,
    input.now,
  ]);
  const id = `eml_${randomBase62(27)}`;
  const secret = randomToken(32);
  const expireAt = new Date(input.now.getTime() + input.ttlSeconds * 1000);
  await db.query(
    `INSERT INTO email_links (id, secret_hash, purpose, attempt_id, client_id, email_address, redirect_url,
                              expire_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      id,
      secretHash(input.pepper, id, secret),
      input.purpose,
      input.attemptId,
      input.clientId,
      input.email,
      input.redirectUrl,
      expireAt,
      input.now,
    ],
  );
  return { token: `${id}.${secret}`, expireAt };
}

/**
 * The link a token names, when its secret matches (compared in constant time); null for anything else.
 * Consumed and expired links are returned too: the caller tells those outcomes apart.
 */
export async function findEmailLink(
  db: Queryable,
  token: string | undefined,
  pepper: string,
  opts: { lock?: boolean } = {},
): Promise<EmailLinkRow | null> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return null;
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const id = token.slice(0, dot);
  const secret = token.slice(dot + 1);
  const [row] = await db.query<EmailLinkRow & { secret_hash: string }>(
    `SELECT ${COLUMNS}, secret_hash FROM email_links WHERE id = $1${opts.lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  if (!row || !constantTimeEqual(secretHash(pepper, id, secret), row.secret_hash)) return null;
  const { secret_hash: _hash, ...link } = row;
  return link;
}

export async function consumeEmailLink(db: Queryable, id: string, now: Date): Promise<void> {
  await db.query('UPDATE email_links SET consumed_at = $2 WHERE id = $1 AND consumed_at IS NULL', [id, now]);
}
