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
    await upsertInstanceSettings(tx, settings, now);
    return (await readInstanceSettings(tx))!;
  });
}

/**
 * Stores `value` (validated first) only if the stored version is still `expectedVersion` (null: whatever
 * it is), the row locked meanwhile so that two writers cannot both pass the check. `beforeCommit` runs last
 * in the transaction with what is about to be committed (the settings file's write-back); a throw there
 * rolls the change back. Answers the stored settings, or the current version when it moved.
 */
export async function writeInstanceSettingsAtVersion(
  db: Database,
  value: unknown,
  expectedVersion: number | null,
  now: Date,
  beforeCommit: (stored: StoredInstanceSettings) => void = () => {},
): Promise<{ stored: StoredInstanceSettings } | { conflict: number }> {
  const settings = parseInstanceSettings(value);
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ version: number }>(
      'SELECT version FROM instance_settings_document FOR UPDATE',
    );
    if (expectedVersion !== null && row && row.version !== expectedVersion) return { conflict: row.version };
    await upsertInstanceSettings(tx, settings, now);
    const stored = (await readInstanceSettings(tx))!;
    beforeCommit(stored);
    return { stored };
  });
}

/** The version moves only when the document changes (jsonb equality ignores key order and spacing). */
async function upsertInstanceSettings(tx: Queryable, settings: InstanceSettings, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO instance_settings_document (id, settings, version, updated_at) VALUES (true, $1::jsonb, 1, $2)
     ON CONFLICT (id) DO UPDATE SET settings = excluded.settings,
       version = instance_settings_document.version + 1,
       updated_at = GREATEST(excluded.updated_at, instance_settings_document.updated_at)
     WHERE instance_settings_document.settings IS DISTINCT FROM excluded.settings`,
    [JSON.stringify(settings), now],
  );
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
