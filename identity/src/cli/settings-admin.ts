import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { DEFAULT_INSTANCE_SETTINGS, InstanceSettingsError } from '../instance/settings/schema.ts';
import { settingsDiff } from '../instance/settings/settings-diff.ts';
import { loadSettingsFile } from '../instance/settings/settings-file.ts';
import {
  readInstanceSettings,
  seedInstanceSettings,
  writeInstanceSettings,
  type StoredInstanceSettings,
} from '../store/instance-settings.ts';
import { CliError } from './actor-token-admin.ts';
import { openInstanceDatabase, type DatabaseTarget } from './purge-database.ts';

export type SettingsTarget = DatabaseTarget;

/**
 * The instance's database for `settings`: DATABASE_URL (shared by every server, which follow a change
 * within seconds), or the PGlite directory when no server holds it.
 */
export function openSettingsTarget(env: NodeJS.ProcessEnv): Promise<SettingsTarget> {
  return openInstanceDatabase(
    env,
    (pgliteDir, holder) =>
      `The database in ${pgliteDir} is in use by process ${holder}. Stop it and run the command again, ` +
      `or give the server a settings file (IDENTITY_SETTINGS_FILE), applied when it starts.`,
  );
}

/** The stored settings; a database that never had any shows the defaults a server would start with. */
export async function showSettings(db: Database): Promise<StoredInstanceSettings> {
  await migrate(db);
  return (
    (await readInstanceSettings(db)) ??
    (await seedInstanceSettings(db, DEFAULT_INSTANCE_SETTINGS, new Date()))
  );
}

/**
 * Sets one field of the settings document (a dotted path such as `sessionToken.claims`) to `json`, and
 * stores the whole document through the same validation as the settings file.
 */
export async function setSetting(db: Database, field: string, json: string): Promise<StoredInstanceSettings> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    throw new CliError(`The value for ${field} is not JSON (${(err as Error).message}).`);
  }
  const current = await showSettings(db);
  const document = structuredClone(current.settings) as Record<string, unknown>;
  const keys = field.split('.');
  if (keys.some((key) => !/^[A-Za-z_$][\w$]*$/.test(key))) {
    throw new CliError(`${field} is not a settings field (for instance sessionToken.claims).`);
  }
  let node = document;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
  try {
    return await writeInstanceSettings(db, document, new Date());
  } catch (err) {
    if (err instanceof InstanceSettingsError) throw new CliError(err.message);
    throw err;
  }
}

/**
 * What a settings file would change in the stored settings (the next start with it, or the Backend API's
 * validate), one field a line; a file refused is the error naming each field.
 */
export async function diffSettingsFile(
  db: Database,
  path: string,
): Promise<{ lines: string[]; version: number }> {
  let proposed;
  try {
    proposed = loadSettingsFile(path);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const current = await showSettings(db);
  const shown = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
  return {
    lines: settingsDiff(current.settings, proposed).map(
      (c) => `${c.path}: ${shown(c.before)} → ${shown(c.after)}`,
    ),
    version: current.version,
  };
}
