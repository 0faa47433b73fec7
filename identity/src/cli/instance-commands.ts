import { parseArgs } from 'node:util';
import { purgeExpired } from '../retention/purge.ts';
import { onDatabase, UsageError, type CliCommand } from './cli-command.ts';
import { openPurgeTarget } from './purge-database.ts';
import { diffSettingsFile, openSettingsTarget, setSetting, showSettings } from './settings-admin.ts';

/** `settings`: the instance settings, shown or changed one field at a time (docs/instance-settings.md). */
export const settingsCommand: CliCommand = {
  name: 'settings',
  usage: `  settings show
      Prints the instance settings (a document a settings file may hold) and their version.

  settings set <field> <JSON value>
      Changes one field, e.g. settings set sessionToken.claims '{"email": "{{user.primary_email_address}}"}'.
      The document is validated as the settings file is; running servers follow within a few seconds.
      A server started with IDENTITY_SETTINGS_FILE puts the file's settings back when it starts again.

  settings diff <settings file>
      Validates a settings file and prints what it would change, one field a line (path: before → after),
      as the Backend API's POST /v1/instance_settings/validate does; changes nothing.
`,
  parse(rest) {
    const { positionals } = parseArgs({ args: rest, options: {}, strict: true, allowPositionals: true });
    const [action, ...args] = positionals;
    let set: { field: string; value: string } | null;
    if (action === 'diff' && args.length === 1) {
      const file = args[0]!;
      return (io) =>
        onDatabase(io, io.openSettings ?? openSettingsTarget, async (db) => {
          const { lines, version } = await diffSettingsFile(db, file);
          for (const line of lines) io.out(line);
          io.err(`${lines.length} change${lines.length === 1 ? '' : 's'} against version ${version}.`);
        });
    }
    if (action === 'show' && args.length === 0) set = null;
    else if (action === 'set' && args.length === 2) set = { field: args[0]!, value: args[1]! };
    else throw new UsageError('settings takes "show", "set <field> <JSON value>" or "diff <settings file>".');
    return (io) =>
      onDatabase(io, io.openSettings ?? openSettingsTarget, async (db) => {
        const stored = set ? await setSetting(db, set.field, set.value) : await showSettings(db);
        io.out(JSON.stringify(stored.settings, null, 2));
        io.err(`version ${stored.version}, updated ${stored.updatedAt.toISOString()}`);
        if (set && io.env.IDENTITY_SETTINGS_FILE) {
          io.err(
            `IDENTITY_SETTINGS_FILE is set: a server started with it puts that file's settings back. Change the file too.`,
          );
        }
      });
  },
};

/** `purge`: every capability's retention rules, run now. */
export const purgeCommand: CliCommand = {
  name: 'purge',
  usage: `  purge
      Deletes expired rows now (codes, idle clients, old sessions, rate-limit windows, outbox mail), as
      the server does every IDENTITY_PURGE_INTERVAL_SECONDS, and prints how many per table.
`,
  parse(rest) {
    parseArgs({ args: rest, options: {}, strict: true, allowPositionals: false });
    return (io) =>
      onDatabase(io, io.openDatabase ?? openPurgeTarget, async (db) => {
        const deleted = await purgeExpired(db, new Date());
        for (const [table, count] of Object.entries(deleted)) io.out(`${table}: ${count}`);
      });
  },
};
