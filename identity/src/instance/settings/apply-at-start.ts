import type { IdentityConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { LiveInstanceSettings } from './live-settings.ts';
import { DEFAULT_INSTANCE_SETTINGS } from './schema.ts';
import { loadSettingsFile } from './settings-file.ts';
import { seedInstanceSettings, writeInstanceSettings } from '../../store/instance-settings.ts';

/**
 * At start: the settings file, when given, is validated (a bad one stops the start, naming the field and
 * the reason) and becomes the instance's settings — configuration as code wins over earlier changes made
 * with the CLI. Without a file the database keeps what it holds, and a new database gets the defaults.
 */
export async function applyInstanceSettingsAtStart(
  db: Database,
  config: Pick<IdentityConfig, 'settingsFile'>,
  clock: () => Date,
): Promise<LiveInstanceSettings> {
  const stored = config.settingsFile
    ? await writeInstanceSettings(db, loadSettingsFile(config.settingsFile), clock())
    : await seedInstanceSettings(db, DEFAULT_INSTANCE_SETTINGS, clock());
  return new LiveInstanceSettings(db, stored, clock);
}
