import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
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

/** How the file is written today, kept when it is written back: its indentation, final newline, `$schema`. */
interface FileStyle {
  indent: string | number;
  finalNewline: boolean;
  schemaLink: string | undefined;
}

function styleOf(text: string): FileStyle {
  const indent = /^[{[]\s*\n([ \t]+)\S/.exec(text)?.[1];
  let schemaLink: string | undefined;
  try {
    const parsed = JSON.parse(text) as { $schema?: unknown };
    if (typeof parsed.$schema === 'string') schemaLink = parsed.$schema;
  } catch {
    // A file that no longer parses is replaced by a well-formed one.
  }
  return {
    indent: indent === undefined ? 2 : indent.includes('\t') ? '\t' : indent.length,
    finalNewline: text === '' || text.endsWith('\n'),
    schemaLink,
  };
}

/**
 * A settings file about to be replaced: the new text is written and flushed beside it (same directory,
 * so the rename cannot cross file systems), then `commit` renames it over the file in one step, or
 * `abort` removes it. A reader sees the old file or the new one, never half of one.
 */
export interface PendingSettingsFile {
  commit(): void;
  abort(): void;
}

/**
 * Prepares the write-back of `settings` to `path`, in the file's own format (JSON: the only one the file
 * may be written in) and layout. Throws the file system's error (EACCES, ENOSPC…) before anything moved.
 */
export function prepareSettingsFile(given: string, settings: InstanceSettings): PendingSettingsFile {
  let path = given;
  let current = '';
  let mode = 0o600;
  try {
    // A symbolic link stays one: the file it points to is replaced, beside itself.
    path = realpathSync(given);
    current = readFileSync(path, 'utf8');
    mode = statSync(path).mode & 0o777;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const style = styleOf(current);
  const document = style.schemaLink ? { $schema: style.schemaLink, ...settings } : settings;
  const text = JSON.stringify(document, null, style.indent) + (style.finalNewline ? '\n' : '');
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(temp);
    throw err;
  }
  closeSync(fd);
  return {
    commit: () => renameSync(temp, path),
    abort: () => {
      try {
        unlinkSync(temp);
      } catch {
        // Already gone.
      }
    },
  };
}
