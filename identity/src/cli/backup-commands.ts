import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { BackupFileError, checkNewPassphrase, openBackup, writeBackup } from '../backup/backup-file.ts';
import { RestoreRefused, checkRestorable, restoreSnapshot, takeSnapshot } from '../db/snapshot.ts';
import { identityConfigFromEnv } from '../config.ts';
import { sha256 } from '../crypto/secrets.ts';
import { openDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { holderOf } from '../db/pglite-lock.ts';
import { configuredSecretKey, newInstanceSecretKey } from '../instance/instance-keys.ts';
import { resealUnderNewSecretKey } from '../instance/rotate-secret-key.ts';
import { storedSecretKeyHash } from '../store/instance-secrets.ts';
import { rotateSigningKey } from '../instance/signing-keys.ts';
import { allSigningKeys } from '../store/signing-keys.ts';
import { CliError } from './actor-token-admin.ts';
import { onDatabase, UsageError, type CliCommand, type CliIo } from './cli-command.ts';
import { openInstanceDatabase, type DatabaseTarget } from './purge-database.ts';

/** Where the passphrase of a backup is read from when no terminal is there to ask. */
const PASSPHRASE_ENV = 'IDENTITY_BACKUP_PASSPHRASE';

const stopServerFirst = (what: string) => (pgliteDir: string, holder: number) =>
  `The database in ${pgliteDir} is in use by process ${holder}. Stop it and run ${what} again ` +
  `(PGlite opens in one process at a time).`;

/** `backup --out FILE`: every table and the instance secret key, sealed with a passphrase. */
export const backupCommand: CliCommand = {
  name: 'backup',
  usage: `  backup --out <file>
      Writes a backup of the whole instance (every table, read as one consistent snapshot, and the instance
      secret key) to <file>, encrypted with a passphrase: IDENTITY_BACKUP_PASSPHRASE, or asked for on the
      terminal. PostgreSQL is backed up while the servers run; a PGlite directory once its server stopped.
`,
  parse(rest) {
    const { values } = parseArgs({ args: rest, options: { out: { type: 'string' } }, strict: true });
    if (!values.out) throw new UsageError('backup needs --out <file>.');
    const out = values.out;
    return (io) =>
      onDatabase(
        io,
        (env) => openInstanceDatabase(env, stopServerFirst('the backup')),
        async (db) => {
          const target = resolve(out);
          if (existsSync(target)) throw new CliError(`${target} exists already; choose another file.`);
          const secretKey = configuredSecretKey(identityConfigFromEnv(io.env));
          const storedHash = await storedSecretKeyHash(db);
          if (!secretKey) {
            throw new CliError(
              'There is no instance secret key to back up: set IDENTITY_SECRET_KEY, or DATA_DIR to the directory holding identity-secret-key.',
            );
          }
          if (storedHash && storedHash !== sha256(secretKey)) {
            throw new CliError(
              'The configured instance secret key is not the one this database was last started with; a backup with it would not open the TOTP secrets. Point IDENTITY_SECRET_KEY or DATA_DIR at the right key.',
            );
          }
          const passphrase = await newPassphrase(io);
          const snapshot = await takeSnapshot(db);
          const file = await writeBackup(
            { ...snapshot, secretKey },
            { source: db.kind, createdAt: new Date() },
            passphrase,
          );
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(`${target}.partial`, file, { mode: 0o600 });
          renameSync(`${target}.partial`, target);
          const rows = snapshot.tables.reduce((n, t) => n + t.rows.length, 0);
          io.out(target);
          io.err(
            `Backed up ${snapshot.tables.length} tables (${rows} rows) at migration ${snapshot.migrations.at(-1)}, with the instance secret key, sealed.`,
          );
        },
      );
  },
};

/** `restore --in FILE [--force]`: onto a fresh store; the secret key to where the server reads it. */
export const restoreCommand: CliCommand = {
  name: 'restore',
  usage: `  restore --in <file> [--force]
      Restores a backup onto a fresh store (DATABASE_URL, or DATA_DIR/pglite, made if missing) and writes
      its instance secret key to DATA_DIR/identity-secret-key (or checks IDENTITY_SECRET_KEY against it).
      A damaged file, a wrong passphrase or a store that has data is refused with nothing changed; --force
      replaces the store's data and key file. Start the server after: it upgrades an older backup's data.
`,
  parse(rest) {
    const { values } = parseArgs({
      args: rest,
      options: { in: { type: 'string' }, force: { type: 'boolean', default: false } },
      strict: true,
    });
    if (!values.in) throw new UsageError('restore needs --in <file>.');
    const input = values.in;
    const force = values.force ?? false;
    return async (io) => {
      try {
        const path = resolve(input);
        if (!existsSync(path)) throw new CliError(`There is no file ${path}.`);
        const file = readFileSync(path);
        const passphrase = await askPassphrase(io, 'Backup passphrase: ');
        const { header, contents } = await openBackup(file, passphrase);
        checkRestorable(contents);
        const config = identityConfigFromEnv(io.env);
        // Where the key goes, checked before the store is touched.
        if (config.secretKey && config.secretKey !== contents.secretKey) {
          throw new CliError(
            "IDENTITY_SECRET_KEY is not the key of this backup. Unset it: the restore then writes the backup's key to DATA_DIR/identity-secret-key; start the server with that file (or copy its content into IDENTITY_SECRET_KEY).",
          );
        }
        const keyFile = config.secretKey ? null : config.secretKeyFile;
        if (keyFile && existsSync(keyFile) && !force) {
          const present = readFileSync(keyFile, 'utf8').trim();
          if (present !== contents.secretKey) {
            throw new CliError(`${keyFile} holds another instance secret key; add --force to replace it.`);
          }
        }
        if (keyFile) {
          mkdirSync(dirname(keyFile), { recursive: true });
          writeFileSync(`${keyFile}.restoring`, `${contents.secretKey}\n`, { mode: 0o600 });
        }
        let restored: Awaited<ReturnType<typeof restoreSnapshot>>;
        try {
          restored = await onStore(io.env, (db) => restoreSnapshot(db, contents, { force }));
        } catch (err) {
          if (keyFile) rmSync(`${keyFile}.restoring`, { force: true });
          throw err;
        }
        if (keyFile) renameSync(`${keyFile}.restoring`, keyFile);
        io.err(
          `Restored the backup of ${header.createdAt} (${header.source}, migration ${header.migration}): ${restored.tables} tables, ${restored.rows} rows.` +
            (restored.upgradedWith.length ? ` Upgraded with ${restored.upgradedWith.join(', ')}.` : '') +
            (keyFile ? ` Instance secret key written to ${keyFile}.` : ''),
        );
        return 0;
      } catch (err) {
        return backupErrors(io)(err);
      }
    };
  },
};

/** `keys list` and `keys rotate`: the session-token signing keys, and the instance secret key. */
export const keysCommand: CliCommand = {
  name: 'keys',
  usage: `  keys list
      Lists the session-token signing keys: kid, from when each signs, when it leaves the JWKS.

  keys rotate [--activate-after <seconds>] [--keep-old <seconds>]
      Adds a signing key, published in the JWKS at once and signing after --activate-after (default 3600:
      the hour verifiers such as @clerk/backend keep a JWKS); the keys before it stay published for
      --keep-old (default 86400) after that, then leave it. Running servers follow within 30 s.

  keys rotate --secret-key [--key-out <file>]
      Replaces the instance secret key (the Backend API key, under which TOTP secrets, API key secrets and
      provider tokens are sealed) and re-seals all of them in one transaction. The new key goes to
      DATA_DIR/identity-secret-key, or to --key-out when IDENTITY_SECRET_KEY holds the key. Stop the servers
      first and start them with the new key.
`,
  parse(rest) {
    const { values, positionals } = parseArgs({
      args: rest,
      options: {
        'activate-after': { type: 'string' },
        'keep-old': { type: 'string' },
        'secret-key': { type: 'boolean', default: false },
        'key-out': { type: 'string' },
      },
      strict: true,
      allowPositionals: true,
    });
    const [action, ...extra] = positionals;
    if (extra.length || (action !== 'list' && action !== 'rotate')) {
      throw new UsageError('keys takes "list" or "rotate".');
    }
    if (action === 'list') {
      if (Object.values(values).some((v) => v !== undefined && v !== false)) {
        throw new UsageError('keys list takes no options.');
      }
      return (io) =>
        onDatabase(
          io,
          (env) => openInstanceDatabase(env, stopServerFirst('keys list')),
          async (db) => {
            await migrate(db);
            const now = new Date();
            for (const key of await allSigningKeys(db)) {
              const state =
                key.retire_at && key.retire_at <= now
                  ? 'retired'
                  : key.signs_from > now
                    ? 'published, not signing yet'
                    : 'published';
              io.out(
                `${key.kid}  signs from ${key.signs_from.toISOString()}  ` +
                  `${key.retire_at ? `leaves the JWKS ${key.retire_at.toISOString()}` : 'newest'}  (${state})`,
              );
            }
          },
        );
    }
    if (values['secret-key']) {
      if (values['activate-after'] !== undefined || values['keep-old'] !== undefined) {
        throw new UsageError('keys rotate --secret-key takes only --key-out.');
      }
      const keyOut = values['key-out'];
      return (io) => rotateSecretKey(io, keyOut ? resolve(keyOut) : null);
    }
    if (values['key-out'] !== undefined)
      throw new UsageError('--key-out goes with keys rotate --secret-key.');
    const activateAfterSeconds = seconds(values['activate-after'], 3600, '--activate-after');
    const keepOldSeconds = seconds(values['keep-old'], 86_400, '--keep-old');
    return (io) =>
      onDatabase(
        io,
        (env) => openInstanceDatabase(env, stopServerFirst('keys rotate')),
        async (db) => {
          await migrate(db);
          const { keepOld, ttl } = {
            keepOld: keepOldSeconds,
            ttl: identityConfigFromEnv(io.env).sessionTokenTtlSeconds,
          };
          if (keepOld < ttl) {
            throw new CliError(`--keep-old must be at least the session token lifetime (${ttl} s).`);
          }
          const rotated = await rotateSigningKey(db, {
            activateAfterSeconds,
            keepOldSeconds,
            now: new Date(),
          });
          io.out(rotated.kid);
          io.err(
            `Published ${rotated.kid}; it signs from ${rotated.signsFrom.toISOString()}. The keys before it leave the JWKS at ${rotated.oldRetireAt.toISOString()}.`,
          );
        },
      );
  },
};

function seconds(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n > 366 * 86_400) {
    throw new UsageError(`${name} takes a whole number of seconds (at most a year).`);
  }
  return n;
}

async function rotateSecretKey(io: CliIo, keyOut: string | null): Promise<number> {
  const config = identityConfigFromEnv(io.env);
  if (config.secretKey && !keyOut) {
    io.err(
      'IDENTITY_SECRET_KEY holds the instance secret key: give --key-out <file> for the new one, then put it in IDENTITY_SECRET_KEY.',
    );
    return 1;
  }
  const destination = keyOut ?? config.secretKeyFile!;
  return onDatabase(
    io,
    (env) => openInstanceDatabase(env, stopServerFirst('keys rotate --secret-key')),
    async (db) => {
      await migrate(db);
      const oldKey = configuredSecretKey(config);
      if (!oldKey)
        throw new CliError('There is no instance secret key to rotate: start the server once first.');
      const storedHash = await storedSecretKeyHash(db);
      if (storedHash && storedHash !== sha256(oldKey)) {
        throw new CliError(
          'The configured instance secret key is not the one this database was last started with; nothing was changed.',
        );
      }
      if (keyOut && existsSync(keyOut)) throw new CliError(`${keyOut} exists already; choose another file.`);
      const newKey = newInstanceSecretKey();
      // The new key is on disk before the database depends on it, and takes the old one's place after.
      mkdirSync(dirname(destination), { recursive: true });
      const pending = `${destination}.new`;
      writeFileSync(pending, `${newKey}\n`, { mode: 0o600 });
      let report: Awaited<ReturnType<typeof resealUnderNewSecretKey>>;
      try {
        report = await resealUnderNewSecretKey(db, oldKey, newKey);
      } catch (err) {
        rmSync(pending, { force: true });
        throw err;
      }
      renameSync(pending, destination);
      io.out(destination);
      io.err(
        `Re-sealed ${report.totpSecrets} TOTP secrets, ${report.apiKeySecrets} API key secrets, ${report.jwtTemplateKeys} JWT template keys and ${report.providerTokens} provider tokens under the new key` +
          (report.unreadable
            ? ` (${report.unreadable} did not open under the old key and were left as they were)`
            : '') +
          `. The new key is in ${destination}. Start every server with it` +
          (config.secretKey ? ' (IDENTITY_SECRET_KEY).' : '.'),
      );
    },
  );
}

/** The store a restore writes: DATABASE_URL, or DATA_DIR/pglite, made when missing and not held. */
async function onStore<T>(
  env: NodeJS.ProcessEnv,
  work: (db: DatabaseTarget['db']) => Promise<T>,
): Promise<T> {
  let db: DatabaseTarget['db'];
  if (env.DATABASE_URL) db = await openDatabase({ url: env.DATABASE_URL });
  else {
    const pgliteDir = resolve(env.DATA_DIR ?? '.data', 'pglite');
    const holder = existsSync(pgliteDir) ? holderOf(pgliteDir) : null;
    if (holder !== null) throw new CliError(stopServerFirst('the restore')(pgliteDir, holder));
    db = await openDatabase({ dataDir: pgliteDir });
  }
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

function backupErrors(io: CliIo) {
  return (err: unknown): number => {
    if (err instanceof BackupFileError || err instanceof RestoreRefused || err instanceof CliError) {
      io.err(`${err.message} Nothing was changed.`);
    } else io.err(`Failed: ${(err as Error).message}`);
    return 1;
  };
}

/** The passphrase for a new backup: the environment's, or asked twice on the terminal. */
async function newPassphrase(io: CliIo): Promise<string> {
  const passphrase = await askPassphrase(io, 'Backup passphrase: ');
  if (!io.env.IDENTITY_BACKUP_PASSPHRASE) {
    const again = await askPassphrase(io, 'The same passphrase again: ');
    if (again !== passphrase) throw new CliError('The two passphrases differ.');
  }
  checkNewPassphrase(passphrase);
  return passphrase;
}

/** IDENTITY_BACKUP_PASSPHRASE, or a line typed on the terminal without echo. */
async function askPassphrase(io: CliIo, question: string): Promise<string> {
  const fromEnv = io.env.IDENTITY_BACKUP_PASSPHRASE;
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) {
    throw new CliError(
      `Set ${PASSPHRASE_ENV}, or run the command on a terminal to be asked for the passphrase.`,
    );
  }
  process.stderr.write(question);
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // Nothing typed is echoed.
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {};
  try {
    return await new Promise<string>((done) => rl.question('', done));
  } finally {
    rl.close();
    process.stderr.write('\n');
  }
}
