import type { Queryable } from '../db/database.ts';

/** Migration 033: which list an identifier is on. */
export type IdentifierList = 'allowlist' | 'blocklist';
export type ListedIdentifierType = 'email_address' | 'phone_number' | 'web3_wallet';

export interface ListedIdentifierRow {
  id: string;
  identifier: string;
  identifier_type: ListedIdentifierType;
  created_at: Date;
  updated_at: Date;
}

/** The table of each list: a fixed name, never taken from input. */
const TABLES: Record<IdentifierList, string> = {
  allowlist: 'allowlist_identifiers',
  blocklist: 'blocklist_identifiers',
};

/** The new entry, or null when the identifier is on that list already (the unique index decides). */
export async function insertListedIdentifier(
  tx: Queryable,
  list: IdentifierList,
  input: { id: string; identifier: string; type: ListedIdentifierType; now: Date },
): Promise<ListedIdentifierRow | null> {
  const [row] = await tx.query<ListedIdentifierRow>(
    `INSERT INTO ${TABLES[list]} (id, identifier, identifier_type, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (lower(identifier)) DO NOTHING RETURNING *`,
    [input.id, input.identifier, input.type, input.now],
  );
  return row ?? null;
}

/** Oldest first, as Clerk lists them; the id breaks ties. */
export async function listListedIdentifiers(
  tx: Queryable,
  list: IdentifierList,
  page: { limit: number; offset: number },
): Promise<{ data: ListedIdentifierRow[]; total: number }> {
  const data = await tx.query<ListedIdentifierRow>(
    `SELECT * FROM ${TABLES[list]} ORDER BY created_at ASC, id ASC LIMIT $1 OFFSET $2`,
    [page.limit, page.offset],
  );
  const [count] = await tx.query<{ n: string }>(`SELECT count(*) AS n FROM ${TABLES[list]}`);
  return { data, total: Number(count!.n) };
}

export async function deleteListedIdentifier(
  tx: Queryable,
  list: IdentifierList,
  id: string,
): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(`DELETE FROM ${TABLES[list]} WHERE id = $1 RETURNING id`, [id]);
  return rows.length > 0;
}

/** Whether the list has any entry (an empty allowlist lets everyone sign up). */
export async function listIsEmpty(tx: Queryable, list: IdentifierList): Promise<boolean> {
  const rows = await tx.query<{ one: number }>(`SELECT 1 AS one FROM ${TABLES[list]} LIMIT 1`);
  return rows.length === 0;
}

/**
 * Whether any of `candidates` (lowercased identifiers, and `*@domain` for an address's domain) is on the
 * list: one query for everything a sign-up or sign-in names.
 */
export async function listHasAny(
  tx: Queryable,
  list: IdentifierList,
  candidates: string[],
): Promise<boolean> {
  if (candidates.length === 0) return false;
  const rows = await tx.query<{ one: number }>(
    `SELECT 1 AS one FROM ${TABLES[list]} WHERE lower(identifier) = ANY($1::text[]) LIMIT 1`,
    [candidates],
  );
  return rows.length > 0;
}

export interface RedirectUrlRow {
  id: string;
  url: string;
  created_at: Date;
  updated_at: Date;
}

/** The new URL, or null when it is allowed already. */
export async function insertRedirectUrl(
  tx: Queryable,
  input: { id: string; url: string; now: Date },
): Promise<RedirectUrlRow | null> {
  const [row] = await tx.query<RedirectUrlRow>(
    `INSERT INTO redirect_urls (id, url, created_at, updated_at) VALUES ($1, $2, $3, $3)
     ON CONFLICT (url) DO NOTHING RETURNING *`,
    [input.id, input.url, input.now],
  );
  return row ?? null;
}

export async function listRedirectUrls(tx: Queryable): Promise<RedirectUrlRow[]> {
  return tx.query<RedirectUrlRow>(`SELECT * FROM redirect_urls ORDER BY created_at ASC, id ASC`);
}

export async function findRedirectUrl(tx: Queryable, id: string): Promise<RedirectUrlRow | null> {
  const [row] = await tx.query<RedirectUrlRow>(`SELECT * FROM redirect_urls WHERE id = $1`, [id]);
  return row ?? null;
}

export async function deleteRedirectUrl(tx: Queryable, id: string): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(`DELETE FROM redirect_urls WHERE id = $1 RETURNING id`, [id]);
  return rows.length > 0;
}
