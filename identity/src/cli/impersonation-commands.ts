import { parseArgs } from 'node:util';
import { DatabaseInUseError } from '../db/pglite-lock.ts';
import { CliError, isUserId, type ActorTokenAdmin, type UserSummary } from './actor-token-admin.ts';
import { UsageError, type CliCommand, type CliIo } from './cli-command.ts';
import { openAdmin } from './open-admin.ts';

/** `impersonate`: a single-use sign-in link as a user, with the one really acting recorded (docs/impersonation.md). */
export const impersonateCommand: CliCommand = {
  name: 'impersonate',
  usage: `  impersonate --actor <user id or email> --user <user id or email>
              [--expires-in <duration>] [--session-max-duration <duration>]
      Prints a single-use sign-in link. Whoever opens it is signed in as --user, with --actor recorded as
      the one really acting (the session's actor, the act claim of its tokens). A browser already signed
      in is signed out first. Durations are seconds, or with a unit: 90s, 10m, 1h. By default the link
      works for 1h and the session it opens lasts 30m.
`,
  parse(rest) {
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
    const command: Impersonation = {
      actor,
      user,
      expiresInSeconds: duration('--expires-in', values['expires-in']),
      sessionMaxDurationInSeconds: duration('--session-max-duration', values['session-max-duration']),
    };
    return (io) => withAdmin(io, (admin) => impersonate(admin, command, io));
  },
};

/** `revoke-actor-token`: cancels a link that has not been used yet. */
export const revokeActorTokenCommand: CliCommand = {
  name: 'revoke-actor-token',
  usage: `  revoke-actor-token <actor token id>
      Revokes a link that has not been used yet (the act_… id that impersonate prints).
`,
  parse(rest) {
    const { positionals } = parseArgs({ args: rest, options: {}, strict: true, allowPositionals: true });
    if (positionals.length !== 1)
      throw new UsageError('revoke-actor-token takes one actor token id (act_…).');
    const id = positionals[0]!;
    return (io) =>
      withAdmin(io, async (admin) => {
        const revoked = await admin.revokeActorToken(id);
        io.out(`${revoked.id} ${revoked.status}`);
      });
  },
};

interface Impersonation {
  actor: string;
  user: string;
  expiresInSeconds?: number;
  sessionMaxDurationInSeconds?: number;
}

/** Opens the way to the instance (its database, or the running server's Backend API), runs `work`, closes it. */
async function withAdmin(io: CliIo, work: (admin: ActorTokenAdmin) => Promise<void>): Promise<number> {
  let admin: ActorTokenAdmin | null = null;
  try {
    admin = await (io.openAdmin ?? openAdmin)(io.env);
    await work(admin);
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

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

function duration(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\s*([smhd]?)$/.exec(value.trim());
  if (!match) throw new UsageError(`${option} must be a duration such as 600, 90s, 10m or 1h.`);
  return Number(match[1]) * UNIT_SECONDS[match[2] || 's']!;
}

async function impersonate(admin: ActorTokenAdmin, command: Impersonation, io: CliIo): Promise<void> {
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
