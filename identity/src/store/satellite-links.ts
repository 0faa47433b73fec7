import type { Queryable } from '../db/database.ts';

/** Stores a link token's hash for one satellite; the expired ones go at the same time. */
export async function insertSatelliteLink(
  tx: Queryable,
  input: {
    tokenHash: string;
    clientId: string;
    domainId: string;
    redirectUrl: string;
    expiresAt: Date;
    now: Date;
  },
): Promise<void> {
  await tx.query('DELETE FROM satellite_links WHERE expires_at <= $1', [input.now]);
  await tx.query(
    `INSERT INTO satellite_links (token_hash, client_id, domain_id, redirect_url, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [input.tokenHash, input.clientId, input.domainId, input.redirectUrl, input.expiresAt, input.now],
  );
}

/**
 * Takes the link with this hash: deleted by the statement that reads it, so a link used twice (or by two
 * browsers at once) works once. An expired one is deleted and answers null.
 */
export async function takeSatelliteLink(
  db: Queryable,
  tokenHash: string,
  now: Date,
): Promise<{ client_id: string; domain_id: string; redirect_url: string } | null> {
  const [row] = await db.query<{
    client_id: string;
    domain_id: string;
    redirect_url: string;
    expires_at: Date;
  }>(
    `DELETE FROM satellite_links WHERE token_hash = $1
     RETURNING client_id, domain_id, redirect_url, expires_at`,
    [tokenHash],
  );
  if (!row || row.expires_at.getTime() <= now.getTime()) return null;
  return { client_id: row.client_id, domain_id: row.domain_id, redirect_url: row.redirect_url };
}

/**
 * Gives a client a credential for one satellite domain (the `__client` cookie there); an earlier one of the
 * same client on the same satellite is replaced.
 */
export async function replaceClientDomainToken(
  tx: Queryable,
  input: { tokenHash: string; clientId: string; domainId: string; now: Date },
): Promise<void> {
  await tx.query('DELETE FROM client_domain_tokens WHERE client_id = $1 AND domain_id = $2', [
    input.clientId,
    input.domainId,
  ]);
  await tx.query(
    `INSERT INTO client_domain_tokens (token_hash, client_id, domain_id, created_at) VALUES ($1, $2, $3, $4)`,
    [input.tokenHash, input.clientId, input.domainId, input.now],
  );
}

/** Replaces a satellite credential by a new one (the client's rotation, on the satellite); false if none. */
export async function rotateClientDomainToken(
  tx: Queryable,
  oldHash: string,
  newHash: string,
): Promise<boolean> {
  const rows = await tx.query(
    'UPDATE client_domain_tokens SET token_hash = $2 WHERE token_hash = $1 RETURNING 1',
    [oldHash, newHash],
  );
  return rows.length > 0;
}

/** A satellite domain removed: its links and its browsers' credentials go with it. */
export async function forgetSatelliteDomain(db: Queryable, domainId: string): Promise<void> {
  await db.query('DELETE FROM satellite_links WHERE domain_id = $1', [domainId]);
  await db.query('DELETE FROM client_domain_tokens WHERE domain_id = $1', [domainId]);
}
