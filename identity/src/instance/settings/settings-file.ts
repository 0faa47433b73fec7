import { readFileSync } from 'node:fs';
import { parseInstanceSettings, type InstanceSettings } from './schema.ts';

/**
 * Reads and validates the settings file (`IDENTITY_SETTINGS_FILE`). Any problem stops the start with the
 * file's path, the field and the reason, before anything is stored.
 */
export function loadSettingsFile(path: string): InstanceSettings {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(
      `IDENTITY_SETTINGS_FILE: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`,
      { cause: err },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`IDENTITY_SETTINGS_FILE: ${path} is not valid JSON (${(err as Error).message}).`, {
      cause: err,
    });
  }
  return parseInstanceSettings(json, `IDENTITY_SETTINGS_FILE: ${path} is refused`);
}
