import type { Queryable } from '../db/database.ts';

/** Migration 036: a JWT template as stored. */
export interface JwtTemplateRow {
  id: string;
  name: string;
  claims: Record<string, unknown>;
  lifetime: number;
  allowed_clock_skew: number;
  signing_algorithm: string;
  /** Null when tokens are signed with the instance's key. */
  sealed_signing_key: string | null;
  created_at: Date;
  updated_at: Date;
}

/** What a template is made of (everything but its id and timestamps). */
export type JwtTemplateFields = Pick<
  JwtTemplateRow,
  'name' | 'claims' | 'lifetime' | 'allowed_clock_skew' | 'signing_algorithm' | 'sealed_signing_key'
>;

/** The new template, or null when its name is taken (the unique index decides). */
export async function insertJwtTemplate(
  tx: Queryable,
  input: JwtTemplateFields & { id: string; now: Date },
): Promise<JwtTemplateRow | null> {
  const [row] = await tx.query<JwtTemplateRow>(
    `INSERT INTO jwt_templates
       (id, name, claims, lifetime, allowed_clock_skew, signing_algorithm, sealed_signing_key, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     ON CONFLICT (name) DO NOTHING RETURNING *`,
    [
      input.id,
      input.name,
      JSON.stringify(input.claims),
      input.lifetime,
      input.allowed_clock_skew,
      input.signing_algorithm,
      input.sealed_signing_key,
      input.now,
    ],
  );
  return row ?? null;
}

/**
 * The template's new fields; null when no template has that id, `'name_taken'` when another has the name.
 */
export async function updateJwtTemplate(
  tx: Queryable,
  id: string,
  fields: JwtTemplateFields,
  now: Date,
): Promise<JwtTemplateRow | 'name_taken' | null> {
  const [clash] = await tx.query<{ id: string }>(
    `SELECT id FROM jwt_templates WHERE name = $1 AND id <> $2`,
    [fields.name, id],
  );
  if (clash) return 'name_taken';
  const [row] = await tx.query<JwtTemplateRow>(
    `UPDATE jwt_templates SET name = $2, claims = $3, lifetime = $4, allowed_clock_skew = $5,
       signing_algorithm = $6, sealed_signing_key = $7, updated_at = $8
     WHERE id = $1 RETURNING *`,
    [
      id,
      fields.name,
      JSON.stringify(fields.claims),
      fields.lifetime,
      fields.allowed_clock_skew,
      fields.signing_algorithm,
      fields.sealed_signing_key,
      now,
    ],
  );
  return row ?? null;
}

export async function findJwtTemplate(tx: Queryable, id: string): Promise<JwtTemplateRow | null> {
  const [row] = await tx.query<JwtTemplateRow>(`SELECT * FROM jwt_templates WHERE id = $1`, [id]);
  return row ?? null;
}

/** The template a token names (by its exact name, as Clerk's getToken({ template }) does). */
export async function findJwtTemplateByName(tx: Queryable, name: string): Promise<JwtTemplateRow | null> {
  const [row] = await tx.query<JwtTemplateRow>(`SELECT * FROM jwt_templates WHERE name = $1`, [name]);
  return row ?? null;
}

/** Oldest first; the id breaks ties. */
export async function listJwtTemplates(
  tx: Queryable,
  page: { limit: number; offset: number },
): Promise<{ data: JwtTemplateRow[]; total: number }> {
  const data = await tx.query<JwtTemplateRow>(
    `SELECT * FROM jwt_templates ORDER BY created_at ASC, id ASC LIMIT $1 OFFSET $2`,
    [page.limit, page.offset],
  );
  return { data, total: await countJwtTemplates(tx) };
}

export async function countJwtTemplates(tx: Queryable): Promise<number> {
  const [count] = await tx.query<{ n: string }>(`SELECT count(*) AS n FROM jwt_templates`);
  return Number(count!.n);
}

export async function deleteJwtTemplate(tx: Queryable, id: string): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(`DELETE FROM jwt_templates WHERE id = $1 RETURNING id`, [id]);
  return rows.length > 0;
}
