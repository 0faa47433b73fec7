import type { Database, Queryable } from '../db/database.ts';
import { parseInstanceSettings, type InstanceSettings } from '../instance/settings/schema.ts';

/** The stored settings document and the version that names it. */
export interface StoredInstanceSettings {
  settings: InstanceSettings;
  version: number;
  updatedAt: Date;
}

interface Row {
  settings: unknown;
  version: number;
  updated_at: Date;
}

/** The stored document, or null before any was stored (a database older than the settings). */
export async function readInstanceSettings(db: Queryable): Promise<StoredInstanceSettings | null> {
  const [row] = await db.query<Row>('SELECT settings, version, updated_at FROM instance_settings_document');
  if (!row) return null;
  // Validated again on the way out: a hand-edited row is refused with its field, not minted from.
  const settings = parseInstanceSettings(
    row.settings,
    'The instance settings stored in the database are invalid',
  );
  return { settings, version: row.version, updatedAt: new Date(row.updated_at) };
}

/** The stored version alone: what other processes poll to learn of a change. */
export async function storedSettingsVersion(db: Queryable): Promise<number | null> {
  const [row] = await db.query<{ version: number }>('SELECT version FROM instance_settings_document');
  return row?.version ?? null;
}

/**
 * Stores `value` (validated first) as the instance's settings. The version moves only when the document
 * changes (jsonb equality ignores key order and spacing), so every process applying the same settings
 * file at start leaves it alone.
 */
export async function writeInstanceSettings(
  db: Database,
  value: unknown,
  now: Date,
): Promise<StoredInstanceSettings> {
  const settings = parseInstanceSettings(value);
  return db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO instance_settings_document (id, settings, version, updated_at) VALUES (true, $1::jsonb, 1, $2)
       ON CONFLICT (id) DO UPDATE SET settings = excluded.settings,
         version = instance_settings_document.version + 1,
         updated_at = GREATEST(excluded.updated_at, instance_settings_document.updated_at)
       WHERE instance_settings_document.settings IS DISTINCT FROM excluded.settings`,
      [JSON.stringify(settings), now],
    );
    return (await readInstanceSettings(tx))!;
  });
}

/** Stores `defaults` only when nothing is stored yet: what an instance started without a file begins with. */
export async function seedInstanceSettings(
  db: Database,
  defaults: InstanceSettings,
  now: Date,
): Promise<StoredInstanceSettings> {
  return db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO instance_settings_document (id, settings, version, updated_at) VALUES (true, $1::jsonb, 1, $2)
       ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify(defaults), now],
    );
    return (await readInstanceSettings(tx))!;
  });
}
