import { parseArgs } from 'node:util';
import { DatabaseInUseError } from '../db/pglite-lock.ts';
import { CliError, isUserId, type ActorTokenAdmin, type UserSummary } from './actor-token-admin.ts';
import { openAdmin } from './open-admin.ts';
import { openPurgeTarget, type PurgeTarget } from './purge-database.ts';
import { purgeExpired } from '../retention/purge.ts';
import { openSettingsTarget, setSetting, showSettings, type SettingsTarget } from './settings-admin.ts';
import {
  listDeliveries,
  listEndpoints,
  openWebhooksTarget,
  replayEvent,
  replayRange,
  type WebhooksTarget,
} from './webhooks-admin.ts';
import { openWaitlistAdmin, type WaitlistAdmin, type WaitlistEntrySummary } from './waitlist-admin.ts';
import { WAITLIST_ENTRY_STATUSES, type WaitlistEntryStatus } from '../store/waitlist.ts';

export const USAGE = `Usage: npm run identity -- <command> [options]

Commands:
  impersonate --actor <user id or email> --user <user id or email>
              [--expires-in <duration>] [--session-max-duration <duration>]
      Prints a single-use sign-in link. Whoever opens it is signed in as --user, with --actor recorded as
      the one really acting (the session's actor, the act claim of its tokens). A browser already signed
      in is signed out first. Durations are seconds, or with a unit: 90s, 10m, 1h. By default the link
      works for 1h and the session it opens lasts 30m.

  revoke-actor-token <actor token id>
      Revokes a link that has not been used yet (the act_… id that impersonate prints).

  settings show
      Prints the instance settings (a document a settings file may hold) and their version.

  settings set <field> <JSON value>
      Changes one field, e.g. settings set sessionToken.claims '{"email": "{{user.primary_email_address}}"}'.
      The document is validated as the settings file is; running servers follow within a few seconds.
      A server started with IDENTITY_SETTINGS_FILE puts the file's settings back when it starts again.

  purge
      Deletes expired rows now (codes, idle clients, old sessions, rate-limit windows, outbox mail), as
      the server does every IDENTITY_PURGE_INTERVAL_SECONDS, and prints how many per table.

  webhooks endpoints
      Lists the webhook endpoints of the instance settings (docs/webhooks.md).

  webhooks deliveries [--endpoint <ep_…>] [--event <evt_…>] [--limit <n>]
      The newest deliveries (default 20) with every attempt: status, latency, the answer's start.

  webhooks replay <evt_…> [--endpoint <ep_…>]
  webhooks replay --since <time> [--until <time>] [--endpoint <ep_…>]
      Sends one event, or every event of a time range (ISO 8601, e.g. 2026-11-28T10:00:00Z; --until
      defaults to now), again: to --endpoint, or to the endpoints it went to and those subscribed now.
      The running servers deliver it within a second, with the same svix-id.

  waitlist list [--status pending|invited|completed|rejected] [--query <text>] [--limit <n>]
      The waitlist's entries, oldest first (docs/sign-up-modes.md).

  waitlist invite <wle_… or email>
  waitlist reject <wle_… or email>
      Invites an entry (an invitation mail whose link opens sign-up) or rejects it.

The instance is the server's: DATABASE_URL, or the PGlite directory under DATA_DIR (default ./.data).
While the server has that directory open, the command goes through the server's Backend API
(IDENTITY_API_URL, or http://127.0.0.1:$PORT/__clerk_backend) with the instance secret key.
`;

export interface CliIo {
  env: NodeJS.ProcessEnv;
  /** The operator's output: the link, and nothing secret besides it. */
  out: (line: string) => void;
  /** Explanations and errors. */
  err: (line: string) => void;
  /** Tests hand in their own way to the instance. */
  openAdmin?: (env: NodeJS.ProcessEnv) => Promise<ActorTokenAdmin>;
  /** Tests hand in their own database for `purge`. */
  openDatabase?: (env: NodeJS.ProcessEnv) => Promise<PurgeTarget>;
  /** Tests hand in their own database for `settings`. */
  openSettings?: (env: NodeJS.ProcessEnv) => Promise<SettingsTarget>;
  /** Tests hand in their own database for `webhooks`. */
  openWebhooks?: (env: NodeJS.ProcessEnv) => Promise<WebhooksTarget>;
  /** Tests hand in their own way to the waitlist. */
  openWaitlist?: (env: NodeJS.ProcessEnv) => Promise<WaitlistAdmin>;
}

/** A mistake in the command line itself: usage is shown, exit status 2. */
class UsageError extends Error {}

/** Runs one command; resolves with the exit status (0 done, 1 refused or failed, 2 bad command line). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (err) {
    if (!(err instanceof UsageError) && !(err instanceof TypeError)) throw err;
    io.err(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (command.name === 'help') {
    io.out(USAGE);
    return 0;
  }
  if (command.name === 'purge') return purge(io);
  if (command.name === 'settings') return settings(command, io);
  if (command.name === 'webhooks') return webhooks(command, io);
  if (command.name === 'waitlist') return waitlist(command, io);
  let admin: ActorTokenAdmin | null = null;
  try {
    admin = await (io.openAdmin ?? openAdmin)(io.env);
    if (command.name === 'impersonate') await impersonate(admin, command, io);
    else await revoke(admin, command.id, io);
    return 0;
  } catch (err) {
    if (err instanceof CliError) io.err(err.message);
    else if (err instanceof DatabaseInUseError) io.err(err.message);
    else io.err(`Failed: ${(err as Error).message}`);
    return 1;
  } finally {
    await admin?.close();
  }
}

type Command =
  | { name: 'help' }
  | {
      name: 'impersonate';
      actor: string;
      user: string;
      expiresInSeconds?: number;
      sessionMaxDurationInSeconds?: number;
    }
  | { name: 'revoke-actor-token'; id: string }
  | { name: 'purge' }
  | { name: 'settings'; action: 'show' }
  | { name: 'settings'; action: 'set'; field: string; value: string }
  | WebhooksCommand
  | WaitlistCommand;

type WaitlistCommand =
  | { name: 'waitlist'; action: 'list'; status?: WaitlistEntryStatus; query?: string; limit: number }
  | { name: 'waitlist'; action: 'invite' | 'reject'; entry: string };

type WebhooksCommand =
  | { name: 'webhooks'; action: 'endpoints' }
  | { name: 'webhooks'; action: 'deliveries'; endpointId?: string; eventId?: string; limit: number }
  | { name: 'webhooks'; action: 'replay'; eventId: string; endpointId?: string }
  | { name: 'webhooks'; action: 'replay-range'; since: Date; until: Date; endpointId?: string };

function parseWebhooksCommand(rest: string[]): WebhooksCommand {
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      endpoint: { type: 'string' },
      event: { type: 'string' },
      limit: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
    },
    strict: true,
    allowPositionals: true,
  });
  const [action, ...args] = positionals;
  const endpointId = values.endpoint;
  if (endpointId !== undefined && !/^ep_[A-Za-z0-9_-]{1,64}$/.test(endpointId)) {
    throw new UsageError('--endpoint must be an endpoint id: ep_<name>.');
  }
  const time = (option: string, value: string): Date => {
    const date = new Date(value);
    if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
      throw new UsageError(`${option} must be a time such as 2026-11-28T10:00:00Z.`);
    }
    return date;
  };
  if (action === 'endpoints' && !args.length) return { name: 'webhooks', action };
  if (action === 'deliveries' && !args.length) {
    const limit = values.limit === undefined ? 20 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      throw new UsageError('--limit must be a whole number from 1 to 1000.');
    }
    if (values.event !== undefined && !/^evt_[A-Za-z0-9]+$/.test(values.event)) {
      throw new UsageError('--event must be an event id: evt_….');
    }
    return { name: 'webhooks', action, endpointId, eventId: values.event, limit };
  }
  if (action === 'replay' && args.length === 1 && values.since === undefined) {
    if (!/^evt_[A-Za-z0-9]+$/.test(args[0]!)) throw new UsageError('replay takes an event id: evt_….');
    return { name: 'webhooks', action, eventId: args[0]!, endpointId };
  }
  if (action === 'replay' && !args.length && values.since !== undefined) {
    const since = time('--since', values.since);
    const until = values.until === undefined ? new Date() : time('--until', values.until);
    if (until <= since) throw new UsageError('--until must come after --since.');
    return { name: 'webhooks', action: 'replay-range', since, until, endpointId };
  }
  throw new UsageError(
    'webhooks takes "endpoints", "deliveries", "replay <evt_…>" or "replay --since <time> [--until <time>]".',
  );
}

async function webhooks(command: WebhooksCommand, io: CliIo): Promise<number> {
  return onDatabase(io, io.openWebhooks ?? openWebhooksTarget, async (db) => {
    const lines =
      command.action === 'endpoints'
        ? await listEndpoints(db, io.env)
        : command.action === 'deliveries'
          ? await listDeliveries(db, command)
          : command.action === 'replay'
            ? await replayEvent(db, command.eventId, command.endpointId, io.env)
            : await replayRange(db, command.since, command.until, command.endpointId, io.env);
    for (const line of lines) io.out(line);
    if (command.action === 'replay' || command.action === 'replay-range') {
      io.err(`${lines.length} deliver${lines.length === 1 ? 'y' : 'ies'} queued.`);
    }
  });
}

function parseCommand(argv: string[]): Command {
  const [name, ...rest] = argv;
  if (!name) throw new UsageError('Missing command.');
  if (name === 'help' || name === '--help' || name === '-h') return { name: 'help' };
  if (name === 'impersonate') {
    const { values, positionals } = parseArgs({
      args: rest,
      options: {
        actor: { type: 'string' },
        user: { type: 'string' },
        'expires-in': { type: 'string' },
        'session-max-duration': { type: 'string' },
      },
      strict: true,
      allowPositionals: true,
    });
    if (positionals.length) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
    const actor = values.actor?.trim();
    const user = values.user?.trim();
    if (!actor) throw new UsageError('Missing --actor <user id or email>: who is acting.');
    if (!user) throw new UsageError('Missing --user <user id or email>: who to sign in as.');
    return {
      name,
      actor,
      user,
      expiresInSeconds: duration('--expires-in', values['expires-in']),
      sessionMaxDurationInSeconds: duration('--session-max-duration', values['session-max-duration']),
    };
  }
  if (name === 'revoke-actor-token') {
    const { positionals } = parseArgs({ args: rest, options: {}, strict: true, allowPositionals: true });
    if (positionals.length !== 1)
      throw new UsageError('revoke-actor-token takes one actor token id (act_…).');
    return { name, id: positionals[0]! };
  }
  if (name === 'purge') {
    parseArgs({ args: rest, options: {}, strict: true, allowPositionals: false });
    return { name };
  }
  if (name === 'settings') {
    const { positionals } = parseArgs({ args: rest, options: {}, strict: true, allowPositionals: true });
    const [action, ...args] = positionals;
    if (action === 'show' && args.length === 0) return { name, action };
    if (action === 'set' && args.length === 2) return { name, action, field: args[0]!, value: args[1]! };
    throw new UsageError('settings takes "show", or "set <field> <JSON value>".');
  }
  if (name === 'webhooks') return parseWebhooksCommand(rest);
  if (name === 'waitlist') return parseWaitlistCommand(rest);
  throw new UsageError(`Unknown command: ${name}`);
}

async function settings(command: Extract<Command, { name: 'settings' }>, io: CliIo): Promise<number> {
  return onDatabase(io, io.openSettings ?? openSettingsTarget, async (db) => {
    const stored =
      command.action === 'show' ? await showSettings(db) : await setSetting(db, command.field, command.value);
    io.out(JSON.stringify(stored.settings, null, 2));
    io.err(`version ${stored.version}, updated ${stored.updatedAt.toISOString()}`);
    if (command.action === 'set' && io.env.IDENTITY_SETTINGS_FILE) {
      io.err(
        `IDENTITY_SETTINGS_FILE is set: a server started with it puts that file's settings back. Change the file too.`,
      );
    }
  });
}

function purge(io: CliIo): Promise<number> {
  return onDatabase(io, io.openDatabase ?? openPurgeTarget, async (db) => {
    const deleted = await purgeExpired(db, new Date());
    for (const [table, count] of Object.entries(deleted)) io.out(`${table}: ${count}`);
  });
}

/** Opens the instance's database, runs `work` on it and closes it: exit 0, or 1 with the reason. */
async function onDatabase<Db>(
  io: CliIo,
  open: (env: NodeJS.ProcessEnv) => Promise<{ db: Db; close(): Promise<void> }>,
  work: (db: Db) => Promise<void>,
): Promise<number> {
  let target: { close(): Promise<void> } | null = null;
  try {
    const opened = await open(io.env);
    target = opened;
    await work(opened.db);
    return 0;
  } catch (err) {
    io.err(err instanceof CliError ? err.message : `Failed: ${(err as Error).message}`);
    return 1;
  } finally {
    await target?.close();
  }
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

function duration(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\s*([smhd]?)$/.exec(value.trim());
  if (!match) throw new UsageError(`${option} must be a duration such as 600, 90s, 10m or 1h.`);
  return Number(match[1]) * UNIT_SECONDS[match[2] || 's']!;
}

async function impersonate(
  admin: ActorTokenAdmin,
  command: Extract<Command, { name: 'impersonate' }>,
  io: CliIo,
): Promise<void> {
  const actor = await userOrFail(admin, command.actor, '--actor');
  const user = await userOrFail(admin, command.user, '--user');
  if (actor.id === user.id)
    throw new CliError('--actor and --user are the same account: nobody to impersonate.');
  const token = await admin.createActorToken({
    userId: user.id,
    actorId: actor.id,
    expiresInSeconds: command.expiresInSeconds,
    sessionMaxDurationInSeconds: command.sessionMaxDurationInSeconds,
  });
  io.err(
    `Sign-in link for ${describe(user)}, acting as ${describe(actor)} (via ${admin.via}).\n` +
      `It works once, for ${minutes(command.expiresInSeconds ?? 3600)}; the session it opens lasts ` +
      `${minutes(command.sessionMaxDurationInSeconds ?? 1800)}. Anyone holding it can use it: hand it over ` +
      `privately.\nTo cancel it before use: npm run identity -- revoke-actor-token ${token.id}`,
  );
  io.out(token.url);
}

async function revoke(admin: ActorTokenAdmin, id: string, io: CliIo): Promise<void> {
  const revoked = await admin.revokeActorToken(id);
  io.out(`${revoked.id} ${revoked.status}`);
}

async function userOrFail(admin: ActorTokenAdmin, idOrEmail: string, option: string): Promise<UserSummary> {
  if (!isUserId(idOrEmail) && !idOrEmail.includes('@')) {
    throw new CliError(`${option} must be a user id (user_…) or an email address, not "${idOrEmail}".`);
  }
  const user = await admin.findUser(idOrEmail);
  if (!user) throw new CliError(`${option}: there is no user ${idOrEmail}.`);
  return user;
}

function describe(user: UserSummary): string {
  const who = user.name && user.email ? `${user.name} <${user.email}>` : (user.name ?? user.email);
  return who ? `${who} (${user.id})` : user.id;
}

function minutes(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}

function parseWaitlistCommand(rest: string[]): WaitlistCommand {
  const { values, positionals } = parseArgs({
    args: rest,
    options: { status: { type: 'string' }, query: { type: 'string' }, limit: { type: 'string' } },
    strict: true,
    allowPositionals: true,
  });
  const [action, ...args] = positionals;
  if (action === 'list' && !args.length) {
    const status = values.status as WaitlistEntryStatus | undefined;
    if (status !== undefined && !WAITLIST_ENTRY_STATUSES.includes(status)) {
      throw new UsageError(`--status must be one of ${WAITLIST_ENTRY_STATUSES.join(', ')}.`);
    }
    const limit = values.limit === undefined ? 100 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500)
      throw new UsageError('--limit must be from 1 to 500.');
    return { name: 'waitlist', action, status, query: values.query, limit };
  }
  if (
    (action === 'invite' || action === 'reject') &&
    args.length === 1 &&
    !values.status &&
    !values.query &&
    !values.limit
  ) {
    return { name: 'waitlist', action, entry: args[0]! };
  }
  throw new UsageError(
    'waitlist takes "list [--status …] [--query …] [--limit n]", "invite <wle_… or email>" or "reject <wle_… or email>".',
  );
}

async function waitlist(command: WaitlistCommand, io: CliIo): Promise<number> {
  const line = (e: WaitlistEntrySummary) =>
    `${e.id}  ${e.status.padEnd(9)}  ${new Date(e.created_at).toISOString()}  ${e.email_address}` +
    (e.invitation ? `  invitation: ${e.invitation.id} ${e.invitation.status}` : '');
  let admin: WaitlistAdmin | null = null;
  try {
    admin = await (io.openWaitlist ?? openWaitlistAdmin)(io.env);
    if (command.action === 'list') {
      const page = await admin.list(command);
      for (const e of page.data) io.out(line(e));
      io.err(
        `${page.data.length} of ${page.total} entr${page.total === 1 ? 'y' : 'ies'} (via ${admin.via}).`,
      );
    } else {
      const entry =
        command.action === 'invite' ? await admin.invite(command.entry) : await admin.reject(command.entry);
      io.out(line(entry));
      if (command.action === 'invite')
        io.err(`Invitation mailed to ${entry.email_address} (via ${admin.via}).`);
    }
    return 0;
  } catch (err) {
    if (err instanceof CliError || err instanceof DatabaseInUseError) io.err(err.message);
    else io.err(`Failed: ${(err as Error).message}`);
    return 1;
  } finally {
    await admin?.close();
  }
}
